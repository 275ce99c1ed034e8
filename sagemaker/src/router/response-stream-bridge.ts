// One InvokeEndpointWithResponseStream call of the local router, mapped to the container's
// POST /invocations: the container's chunked body goes back as PayloadPart events (their
// boundaries are the container's writes, which clients must not rely on). A body that breaks off
// mid-way ends the caller's stream with a ModelStreamError, never a clean end.
import type { ServerResponse } from 'node:http';
import type { AnyResponse } from './aws-errors.ts';
import { sendAwsError } from './aws-errors.ts';
import { encodeException, encodePayloadPart, EVENT_STREAM_CONTENT_TYPE } from '../client/index.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';

/** Resolves when `out` can take more; rejects when it closes first (the caller went away). */
function drained(out: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const drain = () => {
      out.off('close', close);
      resolve();
    };
    const close = () => {
      out.off('drain', drain);
      reject(new Error('the caller closed the stream'));
    };
    out.once('drain', drain);
    out.once('close', close);
  });
}

export async function bridgeResponseStream(
  body: Uint8Array,
  headers: Record<string, string | string[] | undefined>,
  res: AnyResponse,
  containerHttpUrl: string,
  invokedVariant: string,
  /** The container could not be reached (it may be gone): why. */
  onInstanceFailure: (reason: string) => void = () => {},
): Promise<void> {
  // HTTP/1.1 and HTTP/2 compat responses share write/end/writeHead; one type keeps calls simple.
  const out = res as ServerResponse;
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let upstream: Response;
  try {
    upstream = await fetch(`${containerHttpUrl}/invocations`, {
      method: 'POST',
      body,
      headers: {
        'content-type': String(headers['content-type'] ?? 'application/json'),
        ...(headers['x-amzn-sagemaker-accept'] && { accept: String(headers['x-amzn-sagemaker-accept']) }),
      },
      signal: abort.signal,
    });
  } catch (error) {
    const reason = `cannot reach the container at ${containerHttpUrl}: ${errorMessage(error)}`;
    if (!abort.signal.aborted) onInstanceFailure(reason);
    return sendAwsError(res, 424, 'ModelError', reason, { OriginalStatusCode: 502 });
  }
  if (!upstream.ok || !upstream.body) {
    const text = await upstream.text().catch(() => '');
    return sendAwsError(
      res,
      424,
      'ModelError',
      `Received ${upstream.status >= 500 ? 'server' : 'client'} error (${upstream.status}) from primary with message "${text}"`,
      {
        OriginalStatusCode: upstream.status,
        OriginalMessage: text,
      },
    );
  }
  out.writeHead(200, {
    'content-type': EVENT_STREAM_CONTENT_TYPE,
    'x-amzn-sagemaker-content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
    'x-amzn-invoked-production-variant': invokedVariant,
  });
  try {
    // A full response buffer stops the loop, which stops fetch reading the container's body: TCP
    // then pushes back on the container, and the router holds a bounded amount per call.
    for await (const chunk of upstream.body) if (!out.write(encodePayloadPart({ bytes: chunk }))) await drained(out);
  } catch (error) {
    if (!out.writableEnded && !out.destroyed) {
      out.write(
        encodeException('ModelStreamError', {
          Message: `the container's response broke off: ${(error as Error).message}`,
          ErrorCode: 'ModelStreamError',
        }),
      );
    }
  }
  if (!out.writableEnded) out.end();
}
