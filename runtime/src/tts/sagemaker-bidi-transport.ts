// SageMaker transport: protocol v1 over InvokeEndpointWithBidirectionalStream. Each client message
// is one UTF8 PayloadPart (split into PARTIAL..COMPLETE parts above maxPartBytes); the container's
// frames come back as PayloadParts (UTF8 = JSON, BINARY = audio), re-assembled if fragmented.
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { checkBidiInput, openBidiStream, runtimeEndpoint } from '@kokoro-speech/sagemaker';
import type { BidiStream } from '@kokoro-speech/sagemaker';
import type { DataType } from '@kokoro-speech/sagemaker';
import type { Channel, ChannelHandlers, ChannelOpener } from './bidi-stream.ts';
import { BidiSession } from './bidi-session.ts';
import { sageMakerError, sageMakerStreamEventError } from './sagemaker-errors.ts';
import { TtsTransportError } from './types.ts';
import type { TtsSession, TtsSessionObserver, TtsTransport, VoiceSettings } from './types.ts';
import type { RetryPolicy } from './retry.ts';

export interface SageMakerBidiTransportOptions {
  endpointName: string;
  region: string;
  /** Runtime URL override (the local router: http://127.0.0.1:PORT); default the regional :8443 one. */
  endpoint?: string;
  /** Default: the AWS SDK default provider chain. */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  targetVariant?: string;
  /** Messages longer than this go as PARTIAL..COMPLETE parts (default 64 KiB). */
  maxPartBytes?: number;
  /** Refusals before any audio are retried within this budget (default 2000 ms; retry.ts): each
   *  try is a new stream, which SageMaker may route to another instance. */
  retry?: RetryPolicy;
}

/** Reading paused (flow control): the response stream is not read, so HTTP/2's window stops the sender. */
interface Gate {
  open: Promise<void> | null;
}

async function pump(stream: BidiStream, handlers: ChannelHandlers, isClosed: () => boolean, gate: Gate): Promise<void> {
  let fragments: Uint8Array[] = [];
  let fragmentType: DataType | undefined;
  const broken = (error: TtsTransportError) => {
    // The service ended this stream: release it (its isolated HTTP/2 session) at once rather than
    // after the session's idle timeout; the session opens a new one if it resumes.
    stream.close();
    if (!isClosed()) handlers.onBroken(error);
  };
  try {
    for await (const event of stream.responses) {
      if (event.type === 'PayloadPart') {
        if (fragments.length === 0) fragmentType = event.dataType;
        fragments.push(event.bytes);
        if (event.completionState === 'PARTIAL') continue;
        const bytes = fragments.length === 1 ? fragments[0]! : Buffer.concat(fragments);
        fragments = [];
        // A message read after pause() waits for resume(): paused, the session gets no more events.
        if (gate.open) await gate.open;
        handlers.onMessage(fragmentType === 'UTF8' ? toUtf8(bytes) : bytes);
        if (gate.open) await gate.open;
      } else {
        return broken(sageMakerStreamEventError(event));
      }
    }
    broken(new TtsTransportError('connection_lost', 'the bidirectional stream ended', { retryable: true }));
  } catch (error) {
    broken(sageMakerError(error));
  }
}

export class SageMakerBidiTransport implements TtsTransport {
  readonly name = 'sagemaker-bidi' as const;
  readonly #options: SageMakerBidiTransportOptions;

  constructor(options: SageMakerBidiTransportOptions) {
    if (!options.endpointName)
      throw new TypeError('SAGEMAKER_ENDPOINT_NAME is required for the sagemaker-bidi transport');
    // Bad settings fail now, not at the first open().
    runtimeEndpoint(options.endpoint, options.region, 'bidi');
    const violation = checkBidiInput(options);
    if (violation)
      throw new TypeError(
        `${violation.member === 'targetVariant' ? 'SAGEMAKER_TARGET_VARIANT' : 'SAGEMAKER_ENDPOINT_NAME'}: ${violation.message}`,
      );
    // One provider per transport: the default chain memoizes credentials until they expire, so
    // sessions do not each go back to the instance metadata service or SSO cache.
    this.#options = { ...options, credentials: options.credentials ?? defaultProvider() };
  }

  open(settings: VoiceSettings, signal?: AbortSignal, observer?: TtsSessionObserver): Promise<TtsSession> {
    return BidiSession.open(this.#opener, settings, signal, undefined, this.#options.retry, observer);
  }

  readonly #opener: ChannelOpener = async (handlers, signal) => {
    const { maxPartBytes = 64 * 1024, retry: _retry, ...options } = this.#options;
    let stream: BidiStream;
    try {
      stream = await openBidiStream({ ...options, ...(signal && { signal }) });
    } catch (error) {
      throw sageMakerError(error);
    }
    let closed = false;
    const gate: Gate = { open: null };
    let release: (() => void) | null = null;
    void pump(stream, handlers, () => closed, gate);
    const channel: Channel = {
      pause: () => {
        if (gate.open) return;
        const { promise, resolve } = Promise.withResolvers<void>();
        gate.open = promise;
        release = resolve;
      },
      resume: () => {
        gate.open = null;
        release?.();
        release = null;
      },
      send: (message) => {
        const bytes = fromUtf8(JSON.stringify(message));
        if (bytes.byteLength <= maxPartBytes) return stream.send({ bytes, dataType: 'UTF8' });
        for (let offset = 0; offset < bytes.byteLength; offset += maxPartBytes) {
          const last = offset + maxPartBytes >= bytes.byteLength;
          stream.send({
            bytes: bytes.subarray(offset, offset + maxPartBytes),
            dataType: 'UTF8',
            completionState: last ? 'COMPLETE' : 'PARTIAL',
          });
        }
      },
      close: () => {
        if (closed) return;
        closed = true;
        channel.resume!(); // the pump winds down
        stream.end(); // the signed end-of-input event: the router closes the container's WebSocket
        setTimeout(() => stream.close(), 1000).unref();
      },
    };
    return channel;
  };
}
