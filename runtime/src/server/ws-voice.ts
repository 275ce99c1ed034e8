// The voice part of a turn WebSocket (the small hook ws-session.ts calls): `listen`, `listen_end`,
// `barge_in` and the binary frames of the caller's microphone. At most one voice session per
// connection; a `listen` while one is open is refused. Binary frames are audio while a session is
// open, JSON messages otherwise (docs/contracts/turn.md, "Upstream frames").
import type { ListenMessage, TurnRequest } from '@kokoro-speech/protocol';
import { RequestError } from './errors.ts';
import type { VoiceSettings } from './voice-open.ts';
import type { VoiceEvent, VoiceHost, VoiceSession, VoiceTurnFacts } from '../voice/voice-session.ts';
import type { HeldAnswer } from '../voice/preemptive-turn.ts';

export type OpenVoice = (listen: ListenMessage, host: VoiceHost) => { session: VoiceSession; settings: VoiceSettings };

/** What the WebSocket session lends the voice session. */
export interface WsVoiceHost {
  send(event: VoiceEvent): void;
  run(request: TurnRequest, facts: VoiceTurnFacts): void;
  speaking(): boolean;
  /** Starts answering this turn request ahead of its turn (VOICE_PREEMPTIVE); absent: never. */
  preempt?(request: TurnRequest): HeldAnswer | undefined;
  /** A cancel with this `played_ms` (or none). */
  cancel(playedMs: number | undefined): void;
}

export type VoiceMessage =
  ListenMessage | { type: 'listen_end' } | { type: 'barge_in'; played_ms?: number | undefined };

export class WsVoice {
  readonly #open: OpenVoice | undefined;
  readonly #host: WsVoiceHost;
  #session: VoiceSession | null = null;
  /** A stray binary frame was already told about (once per run of them). */
  #toldStray = false;

  constructor(open: OpenVoice | undefined, host: WsVoiceHost) {
    this.#open = open;
    this.#host = host;
  }

  get listening(): boolean {
    return this.#session !== null;
  }

  /** A binary frame during a voice session. */
  audio(frame: Buffer): void {
    this.#session?.audio(frame);
  }

  /** A binary frame that is not JSON, outside a voice session: told once per run. */
  stray(): void {
    if (this.#toldStray) return;
    this.#toldStray = true;
    this.#host.send({
      type: 'error',
      code: 'audio_before_listen',
      message:
        'binary frames must carry a JSON message: audio goes only after {"type":"listen"} opened a voice session',
    });
  }

  message(message: VoiceMessage): void {
    this.#toldStray = false;
    if (message.type === 'barge_in') {
      if (this.#session) this.#session.bargeIn(message.played_ms);
      else this.#host.cancel(message.played_ms);
      return;
    }
    if (message.type === 'listen_end') {
      const session = this.#session;
      if (!session) throw new RequestError(400, 'invalid_request', 'listen_end: no voice session is open');
      void session.end().finally(() => {
        if (this.#session === session) this.#session = null;
      });
      return;
    }
    if (this.#session) throw new RequestError(400, 'invalid_request', 'listen: a voice session is already open');
    if (!this.#open) throw new RequestError(503, 'stt_unavailable', 'this agent has no speech-to-text (STT_PROVIDER)');
    let first = true;
    // previous_played_ms of the listen applies to the first voice turn only.
    const request = (prompt: string): TurnRequest => {
      const { previous_played_ms, ...rest } = settings;
      return { ...rest, ...(first && previous_played_ms !== undefined ? { previous_played_ms } : {}), prompt };
    };
    const { session, settings } = this.#open(message, {
      send: (event) => this.#host.send(event),
      speaking: () => this.#host.speaking(),
      cut: (playedMs) => this.#host.cancel(playedMs),
      preempt: (prompt) => this.#host.preempt?.(request(prompt)),
      turn: (prompt, facts) => {
        this.#host.run(request(prompt), facts);
        first = false;
      },
    });
    this.#session = session;
  }

  close(): void {
    this.#session?.close();
    this.#session = null;
  }
}
