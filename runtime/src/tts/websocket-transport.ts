// Direct transport: a WebSocket to the container's /invocations-bidirectional-stream (local mode).
import WebSocket from 'ws';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import type { Channel, ChannelOpener } from './bidi-stream.ts';
import { BidiSession } from './bidi-session.ts';
import { TtsTransportError } from './types.ts';
import type { TtsSession, TtsSessionObserver, TtsTransport, VoiceSettings } from './types.ts';
import { refusalMessage } from './sagemaker-errors.ts';
import type { RetryPolicy } from './retry.ts';

export interface WebSocketTransportOptions {
  /** ws:// or wss:// URL of the container; a URL without a path gets /invocations-bidirectional-stream. */
  url: string;
  /** Give up connecting, or waiting for the container's ready message, after this long (default 10 s). */
  connectTimeoutMs?: number;
  /** Refusals before any audio are retried within this budget (default 2000 ms; retry.ts). */
  retry?: RetryPolicy;
}

export function bidiUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`KOKORO_URL must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') {
    throw new TypeError(`KOKORO_URL must be a ws:// or wss:// URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = BIDI_PATH;
  return parsed.toString();
}

export class WebSocketTransport implements TtsTransport {
  readonly name = 'websocket' as const;
  readonly url: string;
  readonly #connectTimeoutMs: number;
  readonly #retry: RetryPolicy | undefined;

  constructor(options: WebSocketTransportOptions) {
    this.url = bidiUrl(options.url);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.#retry = options.retry;
  }

  open(settings: VoiceSettings, signal?: AbortSignal, observer?: TtsSessionObserver): Promise<TtsSession> {
    return BidiSession.open(this.#opener, settings, signal, this.#connectTimeoutMs, this.#retry, observer);
  }

  readonly #opener: ChannelOpener = (handlers, signal) =>
    new Promise<Channel>((resolve, reject) => {
      const socket = new WebSocket(this.url, { handshakeTimeout: this.#connectTimeoutMs, perMessageDeflate: false });
      let open = false;
      let closedByUs = false;
      const onAbort = () => socket.terminate();
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.on('open', () => {
        open = true;
        signal?.removeEventListener('abort', onAbort);
        resolve({
          send: (message) => {
            if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
          },
          close: () => {
            closedByUs = true;
            socket.close(1000);
            // A peer that does not answer the close handshake must not keep the socket alive.
            setTimeout(() => socket.terminate(), 1000).unref();
          },
          // TCP flow control: the container's sends stop once the socket buffers fill.
          pause: () => socket.pause(),
          resume: () => socket.resume(),
        });
      });
      // The container answered the upgrade with an HTTP error: 503 is a refusal (admission control,
      // or an instance starting or stopping), which the session retries; anything else is not.
      socket.on('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 8192) body += chunk;
        });
        res.once('end', () => {
          const status = res.statusCode ?? 0;
          reject(
            status === 503
              ? new TtsTransportError(
                  'overloaded',
                  `${this.url} refused the session (HTTP 503): ${refusalMessage(body)}`,
                  {
                    retryable: true,
                  },
                )
              : new TtsTransportError(
                  'bad_response',
                  `${this.url} answered the upgrade with HTTP ${status}: ${body.slice(0, 300)}`,
                  {
                    retryable: status === 429 || status >= 500,
                  },
                ),
          );
          socket.terminate();
        });
      });
      socket.on('message', (data, isBinary) => {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        handlers.onMessage(
          isBinary ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes.toString('utf8'),
        );
      });
      socket.on('error', (error) => {
        if (!open)
          reject(
            new TtsTransportError('connection_lost', `cannot connect to ${this.url}: ${error.message}`, {
              cause: error,
              retryable: true,
            }),
          );
      });
      socket.on('close', (code, reason) => {
        signal?.removeEventListener('abort', onAbort);
        if (!open) {
          reject(
            new TtsTransportError('connection_lost', `connection to ${this.url} closed before it opened (${code})`, {
              retryable: true,
            }),
          );
        } else if (!closedByUs) {
          handlers.onBroken(
            new TtsTransportError(
              'connection_lost',
              `container closed the WebSocket (${code}${reason.length ? ` ${reason.toString()}` : ''})`,
              { retryable: true },
            ),
          );
        }
      });
    });
}
