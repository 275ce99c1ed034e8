// The message channel a protocol-v1 session runs over: a direct WebSocket to the container or a
// SageMaker bidirectional stream. Both carry whole protocol messages: text = JSON, binary = audio.
import type { ClientMessage } from '@kokoro-speech/protocol';
import type { TtsTransportError } from './types.ts';

export interface ChannelHandlers {
  /** One whole message from the container: a string for a text frame, bytes for a binary frame. */
  onMessage(data: string | Uint8Array): void;
  /** The channel ended or failed without close() having been called. Called at most once. */
  onBroken(error: TtsTransportError): void;
}

export interface Channel {
  send(message: ClientMessage): void;
  /** Close at once (the server frees the session's work). Idempotent; onBroken is not called. */
  close(): void;
  /** Stop reading from the stream (flow control: the sender stops once the buffers between fill);
   *  messages already read may still be handed on. */
  pause?(): void;
  resume?(): void;
}

/** Connects a new channel. Rejects with a TtsTransportError when the connection cannot be made. */
export type ChannelOpener = (handlers: ChannelHandlers, signal?: AbortSignal) => Promise<Channel>;
