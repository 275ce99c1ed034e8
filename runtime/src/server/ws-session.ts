// One caller WebSocket on GET /ws: several turns one after another, `{"type":"cancel"}` for
// barge-in, and a new prompt during a turn cancels that turn first. Events are JSON text frames
// with a `type`; audio goes as binary frames after its `sentence` event.
import type WebSocket from 'ws';
import type { PipelineEvent } from '../pipeline/turn.ts';
import type { TurnRequest } from '@kokoro-speech/protocol';
import { RequestError } from './errors.ts';
import { parseWsMessage } from './requests.ts';
import type { VoiceList } from './voices.ts';

export type StartTurn = (
  request: TurnRequest,
  emit: (event: PipelineEvent) => void,
  signal: AbortSignal,
) => Promise<void>;

export class WsSession {
  readonly #socket: WebSocket;
  readonly #startTurn: StartTurn;
  readonly #listVoices: (() => Promise<VoiceList>) | undefined;
  #current: { controller: AbortController; finished: Promise<void> } | null = null;
  #closed = false;

  constructor(socket: WebSocket, startTurn: StartTurn, listVoices?: () => Promise<VoiceList>) {
    this.#socket = socket;
    this.#startTurn = startTurn;
    this.#listVoices = listVoices;
    socket.on('message', (data: Buffer, isBinary: boolean) => this.#onMessage(data, isBinary));
    socket.on('close', () => {
      this.#closed = true;
      this.#current?.controller.abort(new Error('caller disconnected'));
    });
    socket.on('error', () => socket.terminate());
  }

  #send(
    event: PipelineEvent | { type: 'error'; code: string; message: string } | ({ type: 'voices' } & VoiceList),
  ): void {
    if (this.#closed || this.#socket.readyState !== this.#socket.OPEN) return;
    if (event.type === 'audio') this.#socket.send(event.data, { binary: true });
    else this.#socket.send(JSON.stringify(event));
  }

  /** The voice list, between turns or during one (it starts no turn). */
  #voices(): void {
    if (!this.#listVoices) return this.#send({ type: 'error', code: 'invalid_request', message: 'no voice list here' });
    this.#listVoices().then(
      (list) => this.#send({ type: 'voices', ...list }),
      (error: unknown) =>
        this.#send({
          type: 'error',
          code: 'tts_unavailable',
          message: `cannot read the voice list: ${error instanceof Error ? error.message : String(error)}`,
        }),
    );
  }

  #onMessage(data: Buffer, isBinary: boolean): void {
    let message;
    try {
      // JSON is accepted in binary frames too (some clients and proxies send everything binary).
      if (isBinary && data.length > 0 && data[0] !== 0x7b)
        throw new RequestError(400, 'invalid_request', 'binary frames must carry a JSON message');
      message = parseWsMessage(data.toString('utf8'));
    } catch (error) {
      const message = error instanceof RequestError ? error.message : 'invalid message';
      this.#send({ type: 'error', code: 'invalid_request', message });
      return;
    }
    if (message.type === 'cancel') {
      this.#current?.controller.abort(new Error('cancelled by the caller'));
      return;
    }
    if (message.type === 'voices') return this.#voices();
    const { type: _type, ...request } = message;
    void this.#run(request);
  }

  async #run(request: TurnRequest): Promise<void> {
    const previous = this.#current;
    const controller = new AbortController();
    const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
    this.#current = { controller, finished };
    try {
      if (previous) {
        // Barge-in: the previous turn ends (its done is sent) before this one starts.
        previous.controller.abort(new Error('replaced by a new prompt'));
        await previous.finished;
      }
      if (this.#closed || controller.signal.aborted) return;
      await this.#startTurn(request, (event) => this.#send(event), controller.signal);
    } catch (error) {
      const known = error instanceof RequestError ? error : new RequestError(500, 'internal', 'internal error');
      this.#send({ type: 'error', code: known.code, message: known.message });
    } finally {
      if (this.#current?.controller === controller) this.#current = null;
      finish();
    }
  }
}
