// One caller WebSocket on GET /ws: several turns one after another, `{"type":"cancel"}` for
// barge-in, and a new prompt during a turn cancels that turn first. Events are JSON text frames
// with a `type`; audio goes as binary frames after its `sentence` event. The connection is one
// conversation unless its turns name another session; a cancel may report how much of the
// connection's most recent turn the caller played (`played_ms`), also after that turn's `done`.
// Frames go out within AgentCore's frame limits (ws-frames.ts); the connection ends on its own
// terms before AgentCore would cut it (ws-lifetime.ts): an `error` event, then close code 1000.
import type WebSocket from 'ws';
import type { PipelineEvent } from '../pipeline/turn.ts';
import type { TurnRequest } from '@kokoro-speech/protocol';
import type { TurnRecord } from '../conversation/conversation.ts';
import { RequestError } from './errors.ts';
import { parseWsMessage } from './requests.ts';
import type { VoiceList } from './voices.ts';
import { CallerOutput, DEFAULT_FLOW_LIMITS, type FlowLimits } from './caller-flow.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import {
  DEFAULT_STREAM_LIMITS,
  DEFAULT_WS_FRAME_LIMITS,
  type StreamLimits,
  type WsFrameLimits,
} from '../config/defaults.ts';
import { WsFrames } from './ws-frames.ts';
import { WsLifetime, endingMessage, type WsEnding } from './ws-lifetime.ts';
import { WsVoice, type OpenVoice } from './ws-voice.ts';
import type { VoiceEvent, VoiceTurnFacts } from '../voice/voice-session.ts';
import type { HeldAnswer } from '../voice/preemptive-turn.ts';

export type StartTurn = (
  request: TurnRequest,
  emit: (event: PipelineEvent) => void,
  signal: AbortSignal,
  onRecord: (record: TurnRecord) => void,
  flow: CallerOutput,
  /** When the connection's stream ends, in ms from now (the turn fails with `stream_limit` then). */
  streamLimitMs: number,
  /** A voice turn's timings (voice sessions: src/voice). */
  voice?: VoiceTurnFacts,
) => Promise<void>;

export interface WsSessionOptions {
  startTurn: StartTurn;
  /** After the socket closed and its turn is over. */
  onClose?: () => void;
  listVoices?: () => Promise<VoiceList>;
  flowLimits?: FlowLimits;
  frames?: WsFrameLimits;
  streams?: StreamLimits;
  onDrop?: (reason: string) => void;
  /** A bug: an event too big for one frame (replaced by an `internal` error event). */
  onOversize?: (type: string, bytes: number) => void;
  /** Opens a voice session on `listen` (absent: refused with `stt_unavailable`). */
  openVoice?: OpenVoice;
  /** Starts a voice turn's answer ahead of its turn (VOICE_PREEMPTIVE: src/voice/preemptive-turn.ts). */
  preempt?: (request: TurnRequest) => HeldAnswer | undefined;
  /** A bug around a turn (not the turn's own failure, which is its error event): for the log. */
  onTurnError?: (error: unknown) => void;
}

type Outgoing =
  PipelineEvent | VoiceEvent | { type: 'error'; code: string; message: string } | ({ type: 'voices' } & VoiceList);

export class WsSession {
  readonly #socket: WebSocket;
  readonly #startTurn: StartTurn;
  readonly #listVoices: (() => Promise<VoiceList>) | undefined;
  readonly #onTurnError: (error: unknown) => void;
  #current: { controller: AbortController; finished: Promise<void> } | null = null;
  /** The connection's most recent turn (of a conversation), what a cancel's played_ms applies to. */
  #lastRecord: TurnRecord | null = null;
  #closed = false;
  /** What is written to the socket and not yet taken (one flow for all the connection's turns). */
  readonly #flow: CallerOutput;
  readonly #frames: WsFrames;
  readonly #lifetime: WsLifetime;
  readonly #streams: StreamLimits;
  /** Why the connection is ending (no new turn starts), once it is. */
  #ending: WsEnding | null = null;
  /** A turn already told the caller of the stream limit. */
  #toldLimit = false;
  /** `listen` ... `listen_end`: speech in (src/voice). */
  readonly #voice: WsVoice;

  constructor(socket: WebSocket, options: WsSessionOptions) {
    this.#socket = socket;
    this.#startTurn = options.startTurn;
    this.#listVoices = options.listVoices;
    this.#onTurnError = options.onTurnError ?? (() => {});
    this.#streams = options.streams ?? DEFAULT_STREAM_LIMITS;
    this.#frames = new WsFrames(socket, options.frames ?? DEFAULT_WS_FRAME_LIMITS, (type, bytes) =>
      options.onOversize?.(type, bytes),
    );
    this.#flow = new CallerOutput(
      {
        // What waits for the frame budget is the caller's backlog too.
        buffered: () => socket.bufferedAmount + this.#frames.queuedBytes,
        gone: () => this.#closed || socket.readyState !== socket.OPEN,
        drop: () => socket.terminate(),
      },
      options.flowLimits ?? DEFAULT_FLOW_LIMITS,
      (reason) => {
        options.onDrop?.(reason);
        this.#current?.controller.abort(new Error(reason));
      },
    );
    this.#voice = new WsVoice(options.openVoice, {
      send: (event) => this.#send(event),
      run: (request, facts) => void this.#run(request, facts),
      speaking: () => this.#current !== null && !this.#current.controller.signal.aborted,
      cancel: (playedMs) => this.#cancel(playedMs),
      preempt: (request) => (this.#current || this.#ending ? undefined : options.preempt?.(request)),
    });
    this.#lifetime = new WsLifetime(this.#streams, (code) => void this.#end(code));
    socket.on('message', (data: Buffer, isBinary: boolean) => this.#onMessage(data, isBinary));
    socket.on('close', () => {
      this.#closed = true;
      this.#voice.close();
      this.#lifetime.close();
      this.#frames.close();
      this.#flow.closed();
      this.#current?.controller.abort(new Error('caller disconnected'));
      const finished = this.#current?.finished ?? Promise.resolve();
      void finished.then(() => options.onClose?.());
    });
    socket.on('error', () => socket.terminate());
  }

  #send(event: Outgoing): void {
    if (this.#closed || this.#socket.readyState !== this.#socket.OPEN) return;
    if (event.type === 'error' && event.code === 'stream_limit') this.#toldLimit = true;
    this.#frames.send(event as { type: string }, this.#flow.written());
  }

  /** The stream limit or the idle timeout: the running turn ends (by its own stream timer), the
   *  caller is told why, what was written is taken, then the socket closes (1000). */
  async #end(code: WsEnding): Promise<void> {
    if (this.#ending) return;
    this.#ending = code;
    // The running turn ends by its own stream timer; one still waiting for its session is cut.
    const cut = setTimeout(() => this.#current?.controller.abort(new Error('stream limit')), 1000);
    await this.#current?.finished;
    clearTimeout(cut);
    if (code === 'session_idle' || !this.#toldLimit)
      this.#send({ type: 'error', code, message: endingMessage(code, this.#streams) });
    await this.#flow.flushed();
    if (!this.#closed) this.#socket.close(1000, code === 'stream_limit' ? 'stream limit' : 'idle');
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
    this.#lifetime.message();
    if (this.#ending) {
      this.#send({ type: 'error', code: this.#ending, message: endingMessage(this.#ending, this.#streams) });
      return;
    }
    // During a voice session binary frames are the microphone; else JSON is accepted in binary
    // frames too (some clients and proxies send everything binary).
    if (isBinary && this.#voice.listening) return this.#voice.audio(data);
    if (isBinary && data.length > 0 && data[0] !== 0x7b) return this.#voice.stray();
    let message;
    try {
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
      return this.#cancel(message.played_ms);
    }
    if (message.type === 'voices') return this.#voices();
    if (message.type === 'listen' || message.type === 'listen_end' || message.type === 'barge_in') {
      try {
        this.#voice.message(message);
      } catch (error) {
        const known = error instanceof RequestError ? error : new RequestError(500, 'internal', 'internal error');
        this.#send({ type: 'error', code: known.code, message: known.message });
      }
      return;
    }
    const { type: _type, ...request } = message;
    void this.#run(request);
  }

  /** Cuts the running turn short (barge-in); `playedMs`: how much of the most recent turn was played. */
  #cancel(playedMs: number | undefined): void {
    this.#current?.controller.abort(new Error('cancelled by the caller'));
    if (playedMs === undefined) return;
    if (this.#lastRecord) this.#lastRecord.report(playedMs);
    else this.#refuse('cancel: played_ms given, but this connection has had no turn of a conversation');
  }

  async #run(request: TurnRequest, voice?: VoiceTurnFacts): Promise<void> {
    const previous = this.#current;
    const controller = new AbortController();
    const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
    this.#current = { controller, finished };
    this.#lifetime.turnStarted();
    let started = false;
    let ended = false;
    try {
      if (previous) {
        // Barge-in: the previous turn ends (its done is sent) before this one starts.
        previous.controller.abort(new Error('replaced by a new prompt'));
        await previous.finished;
      }
      if (this.#closed || controller.signal.aborted) return;
      await this.#startTurn(
        request,
        (event) => {
          // Nothing of a turn goes out after its terminal event.
          if (ended) return;
          if (event.type === 'start') started = true;
          if (event.type === 'done') ended = true;
          this.#send(event);
        },
        controller.signal,
        (record) => {
          this.#lastRecord = record;
        },
        this.#flow,
        this.#lifetime.remainingMs(),
        voice,
      );
    } catch (error) {
      // A refusal before the turn started (its error event alone), or a bug around a started turn:
      // that one still gets exactly one terminal event, `done` after the error.
      if (!(error instanceof RequestError)) this.#onTurnError(error);
      const failure =
        error instanceof RequestError
          ? { code: error.code, message: error.message }
          : { code: 'internal', message: `the turn failed: ${errorMessage(error)}` };
      if (!ended) this.#send({ type: 'error', ...failure });
      if (started && !ended) this.#send({ type: 'done' });
      ended = true;
    } finally {
      if (this.#current?.controller === controller) this.#current = null;
      this.#lifetime.turnEnded();
      finish();
    }
  }
}
