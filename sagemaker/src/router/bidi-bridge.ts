// One bidirectional-stream call of the local router, bridged to a WebSocket on the container
// exactly as SageMaker does it (docs/design/sagemaker-contracts.md#container-contract): each client PayloadPart becomes one
// WebSocket frame (UTF8 -> text, BINARY or absent -> binary, PARTIAL..COMPLETE -> one fragmented
// message); container frames come back as PayloadParts (text -> UTF8, binary -> BINARY); a close
// from the container reaches the client as a ModelStreamError; the client's end-of-input event
// closes the WebSocket. Like SageMaker, the router pings the container (every 60 s by default) and
// gives up after 5 unanswered pings.
//
// A client that reads slower than the container writes holds the container back: while the HTTP/2
// stream's write() says its buffer is full, the container's WebSocket is not read (so TCP pushes
// back on the container) until the stream drains. What the router holds per stream stays bounded.
// A WebSocket that breaks (a frame no peer may send, no close frame, a close other than 1000/1005
// after the client's end of input) ends the client's stream with a ModelStreamError, never a clean end.
//
// Two behaviours AWS does not document, modelled so that clients meet them locally
// (docs/design/sagemaker-contracts.md#the-local-router-documented-and-inferred):
// a container message longer than `maxResponsePartBytes` goes back as PARTIAL..COMPLETE parts, and
// a stream older than `maxStreamLifetimeMs` (30 minutes, as a seller's guide reports) ends with a
// ModelStreamError whose ErrorCode is ModelInvocationTimeExceeded (the code AWS documents for the
// response-stream API's time limit).
import { randomUUID } from 'node:crypto';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import WebSocket from 'ws';
import {
  codec,
  decodePayloadPart,
  encodeException,
  encodePayloadPart,
  EVENT_STREAM_CONTENT_TYPE,
  readMessages,
  splitPayload,
} from '../client/index.ts';
import { sendAwsError } from './aws-errors.ts';
import { EventVerifier, SignatureError } from './verify.ts';
import type { VerifiedRequest } from './verify.ts';

/** SageMaker pings the container every 60 s and closes the stream after 5 unanswered pings. */
export const PING_INTERVAL_MS = 60_000;
const MISSED_PONGS_ALLOWED = 5;
/** The maximum connection a seller's integration guide reports (AWS documents none). */
export const MAX_STREAM_LIFETIME_MS = 30 * 60_000;

export interface BidiBridgeOptions {
  pingIntervalMs?: number;
  /** Container messages longer than this go back as PARTIAL..COMPLETE parts (default: never split). */
  maxResponsePartBytes?: number;
  /** The stream ends with a ModelStreamError this long after it opened (default 30 min). */
  maxStreamLifetimeMs?: number;
  /** X-Amzn-Invoked-Production-Variant of the response. */
  invokedVariant: string;
  /** Called once, when the stream is over (however it ended): the instance's request is done. */
  onEnd?: () => void;
  /** The container could not be reached, or its stream broke off abnormally (it may be gone): why. */
  onInstanceFailure?: (reason: string) => void;
}

/** How much of a refused upgrade's body is passed on (OriginalMessage). */
const MAX_REFUSAL_BODY_BYTES = 8192;

export function bridgeBidiStream(
  req: Http2ServerRequest,
  res: Http2ServerResponse,
  verified: VerifiedRequest,
  containerWsUrl: string,
  options: BidiBridgeOptions,
): void {
  const {
    pingIntervalMs = PING_INTERVAL_MS,
    maxResponsePartBytes = Infinity,
    maxStreamLifetimeMs = MAX_STREAM_LIFETIME_MS,
  } = options;
  const socket = new WebSocket(containerWsUrl, { perMessageDeflate: false });
  let lifetime: NodeJS.Timeout | undefined;
  let inputEnded = false;
  let finished = false;
  let ended = false;
  /** Set when the router itself ends the container's socket (not the container failing). */
  let killed = false;
  const kill = () => {
    killed = true;
    socket.terminate();
  };
  const end = () => {
    if (ended) return;
    ended = true;
    options.onEnd?.();
  };
  let unanswered = 0;
  /** Set while the client's stream is full: the container's socket is not read. */
  let paused = false;
  const pinger = setInterval(() => {
    // While paused, its pongs sit unread behind its frames: they cannot count as missed.
    if (socket.readyState !== WebSocket.OPEN || paused) return;
    if (++unanswered > MISSED_PONGS_ALLOWED) {
      options.onInstanceFailure?.('its WebSocket stopped answering pings');
      return void socket.terminate(); // reaches the client as ModelStreamError
    }
    socket.ping();
  }, pingIntervalMs);
  pinger.unref();
  socket.on('pong', () => {
    unanswered = 0;
  });
  const finish = (exception?: { type: string; body: Record<string, string> }) => {
    if (finished) return;
    finished = true;
    clearInterval(pinger);
    clearTimeout(lifetime);
    if (exception && res.headersSent && !res.writableEnded) res.write(encodeException(exception.type, exception.body));
    if (!res.writableEnded) res.end();
    if (socket.readyState !== WebSocket.CLOSED) kill();
    end();
  };
  const broken = (why: string) =>
    finish({
      type: 'ModelStreamError',
      body: { Message: `the model container's stream broke: ${why}`, ErrorCode: 'ModelStreamError' },
    });
  req.on('close', () => {
    if (!inputEnded || socket.readyState !== WebSocket.CLOSED) kill();
  });

  // The container answered the upgrade with an HTTP error (a 503 refusal, say): like the container's
  // 4xx/5xx on the classic API, a ModelError carrying its status and body (inferred for this API).
  socket.on('unexpected-response', (_request, response) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    response.on('data', (chunk: Buffer) => {
      if (bytes < MAX_REFUSAL_BODY_BYTES) chunks.push(chunk);
      bytes += chunk.length;
    });
    const answer = () => {
      if (finished) return;
      const status = response.statusCode ?? 0;
      const text = Buffer.concat(chunks).subarray(0, MAX_REFUSAL_BODY_BYTES).toString('utf8');
      sendAwsError(
        res,
        424,
        'ModelError',
        `Received ${status >= 500 ? 'server' : 'client'} error (${status}) from model with message "${text}".`,
        { OriginalStatusCode: status, OriginalMessage: text },
      );
      finished = true;
      clearInterval(pinger);
      kill();
      end();
    };
    response.once('end', answer);
    response.once('error', answer);
  });
  socket.on('error', (error) => {
    if (finished) return;
    // Once open, `ws` reports only what the container sent wrong (socket errors become a 1006
    // close): a broken stream, not an unreachable instance.
    if (res.headersSent) return broken(`its WebSocket failed: ${error.message}`);
    options.onInstanceFailure?.(`cannot reach its WebSocket at ${containerWsUrl}: ${error.message}`);
    sendAwsError(
      res,
      424,
      'ModelError',
      `cannot reach the container's WebSocket at ${containerWsUrl}: ${error.message}`,
      { OriginalStatusCode: 502 },
    );
    finished = true;
    clearInterval(pinger);
    clearTimeout(lifetime);
    if (!res.writableEnded) res.end();
    end();
  });
  socket.on('message', (data, isBinary) => {
    if (finished) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    let room = true;
    for (const part of splitPayload(bytes, isBinary ? 'BINARY' : 'UTF8', maxResponsePartBytes))
      room = res.write(encodePayloadPart(part)) && room;
    if (room || paused) return;
    paused = true;
    socket.pause(); // `ws` may still emit what it has already read: one TCP read at most
    res.once('drain', () => {
      paused = false;
      unanswered = 0;
      socket.resume();
    });
  });
  socket.on('close', (code, reason) => {
    // No close frame, and not our doing: the instance may be gone.
    if (code === 1006 && !killed && !finished)
      options.onInstanceFailure?.('its WebSocket closed with no close frame (1006)');
    const why = `WebSocket close ${code}${reason.length ? ` ${reason.toString()}` : ''}`;
    // After the end of input the container answers the router's close: 1000, or a frame with no code.
    if (inputEnded) return code === 1000 || code === 1005 ? finish() : broken(why);
    finish({
      type: 'ModelStreamError',
      body: {
        Message: `the model container closed the stream (WebSocket close ${code}${reason.length ? ` ${reason.toString()}` : ''})`,
        ErrorCode: 'ModelStreamError',
      },
    });
  });
  socket.on('open', () => {
    res.writeHead(200, {
      'content-type': EVENT_STREAM_CONTENT_TYPE,
      'x-amzn-requestid': randomUUID(),
      'x-amzn-invoked-production-variant': options.invokedVariant,
    });
    lifetime = setTimeout(
      () =>
        finish({
          type: 'ModelStreamError',
          body: {
            Message: `the stream reached its maximum duration of ${maxStreamLifetimeMs} ms`,
            ErrorCode: 'ModelInvocationTimeExceeded',
          },
        }),
      maxStreamLifetimeMs,
    );
    lifetime.unref();
    void pump();
  });

  const pump = async () => {
    const verifier = new EventVerifier(verified);
    try {
      for await (const outer of readMessages(req)) {
        const payload = await verifier.verify(outer);
        if (payload.byteLength === 0) {
          inputEnded = true; // the signed empty event: end of input
          socket.close(1000);
          setTimeout(() => finish(), 1000).unref(); // a container that does not answer the close
          return;
        }
        const part = decodePayloadPart(codec.decode(payload));
        if (!part || socket.readyState !== WebSocket.OPEN) continue;
        socket.send(part.bytes, { binary: part.dataType !== 'UTF8', fin: part.completionState !== 'PARTIAL' });
      }
    } catch (error) {
      if (error instanceof SignatureError) return finish({ type: error.code, body: { message: error.message } });
      return finish({
        type: 'InternalStreamFailure',
        body: { Message: `bad request stream: ${(error as Error).message}` },
      });
    }
    inputEnded = true;
    finish();
  };
}
