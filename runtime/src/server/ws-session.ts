// One caller WebSocket on GET /ws: several turns one after another, `{"type":"cancel"}` for
// barge-in, and a new prompt during a turn cancels that turn first. Events are JSON text frames
// with a `type`; audio goes as binary frames after its `sentence` event. The connection is one
// conversation unless its turns name another session; a cancel may report how much of the
// connection's most recent turn the caller played (`played_ms`), also after that turn's `done`.
import type WebSocket from 'ws';
import type { PipelineEvent } from '../pipeline/turn.ts';
import type { TurnRequest } from '@kokoro-speech/protocol';
import type { TurnRecord } from '../conversation/conversation.ts';
import { RequestError } from './errors.ts';
import { parseWsMessage } from './requests.ts';
import type { VoiceList } from './voices.ts';
import { CallerOutput, DEFAULT_FLOW_LIMITS, type FlowLimits } from './caller-flow.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';

export type StartTurn = (
  request: TurnRequest,
  emit: (event: PipelineEvent) => void,
  signal: AbortSignal,
  onRecord: (record: TurnRecord) => void,
  flow: CallerOutput,
) => Promise<void>;

export class WsSession {
  readonly #socket: WebSocket;
  readonly #startTurn: StartTurn;
  readonly #listVoices: (() => Promise<VoiceList>) | undefined;
  #current: { controller: AbortController; finished: Promise<void> } | null = null;
  /** The connection's most recent turn (of a conversation), what a cancel's played_ms applies to. */
  #lastRecord: TurnRecord | null = null;
  #closed = false;
  /** What is written to the socket and not yet taken (one flow for all the connection's turns). */
  readonly #flow: CallerOutput;

  constructor(
    socket: WebSocket,
    startTurn: StartTurn,
    onClose?: () => void,
    listVoices?: () => Promise<VoiceList>,
    flowLimits: FlowLimits = DEFAULT_FLOW_LIMITS,
    onDrop?: (reason: string) => void,
  ) {
    this.#socket = socket;
    this.#startTurn = startTurn;
    this.#listVoices = listVoices;
    this.#flow = new CallerOutput(
      {
        buffered: () => socket.bufferedAmount,
        gone: () => this.#closed || socket.readyState !== socket.OPEN,
        drop: () => socket.terminate(),
      },
      flowLimits,
      (reason) => {
        onDrop?.(reason);
        this.#current?.controller.abort(new Error(reason));
      },
    );
    socket.on('message', (data: Buffer, isBinary: boolean) => this.#onMessage(data, isBinary));
    socket.on('close', () => {
      this.#closed = true;
      this.#flow.closed();
      this.#current?.controller.abort(new Error('caller disconnected'));
      const finished = this.#current?.finished ?? Promise.resolve();
      void finished.then(() => onClose?.());
    });
    socket.on('error', () => socket.terminate());
  }

  #send(
    event: PipelineEvent | { type: 'error'; code: string; message: string } | ({ type: 'voices' } & VoiceList),
  ): void {
    if (this.#closed || this.#socket.readyState !== this.#socket.OPEN) return;
    if (event.type === 'audio') this.#socket.send(event.data, { binary: true }, this.#flow.written());
    else this.#socket.send(JSON.stringify(event), this.#flow.written());
  }

  #refuse(message: string): void {
    this.#send({ type: 'error', code: 'invalid_request', message });
  }

  /** The voice list, between turns or during one (it starts no turn). */
  #voices(): void {
    if (!this.#listVoices) return this.#refuse('no voice list here');
    this.#listVoices().then(
      (list) => this.#send({ type: 'voices', ...list }),
      (error: unknown) =>
        this.#send({
          type: 'error',
          code: 'tts_unavailable',
          message: `cannot read the voice list: ${errorMessage(error)}`,
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
      this.#refuse(error instanceof RequestError ? error.message : 'invalid message');
      return;
    }
    if (message.type === 'cancel') {
      const last = this.#lastRecord;
      if (message.session_id !== undefined && message.session_id !== last?.sessionId) {
        this.#refuse(
          `cancel: session_id ${JSON.stringify(message.session_id)} is not the session of this connection's most recent turn`,
        );
        return;
      }
      this.#current?.controller.abort(new Error('cancelled by the caller'));
      if (message.played_ms !== undefined) {
        if (last) last.report(message.played_ms);
        else this.#refuse('cancel: played_ms given, but this connection has had no turn of a conversation');
      }
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
      await this.#startTurn(
        request,
        (event) => this.#send(event),
        controller.signal,
        (record) => {
          this.#lastRecord = record;
        },
        this.#flow,
      );
    } catch (error) {
      const known = error instanceof RequestError ? error : new RequestError(500, 'internal', 'internal error');
      this.#send({ type: 'error', code: known.code, message: known.message });
    } finally {
      if (this.#current?.controller === controller) this.#current = null;
      finish();
    }
  }
}
