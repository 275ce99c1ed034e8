// The turn's one TTS session: opened while the LLM thinks (a refusal reported as `tts_overloaded`,
// other failures as `tts_unavailable`), its voice checked and its language put on the trace once it
// is ready, and its events pumped into the sentence ledger only as fast as the caller takes audio:
// while the caller (or the Opus encoder before it) is behind, the session is paused. The turn
// closes it when it ends, whatever happened, and waits for its pump (`closed`): a session still
// opening then is closed as soon as it opens, so no turn leaves a container session open.
import { errorMessage } from '@kokoro-speech/protocol/errors';
import type { OpusTurnOutput } from '../audio/opus-output.ts';
import type { TurnTrace } from '../observability/index.ts';
import type { TtsEvent, TtsSession, TtsTransport, VoiceSettings } from '../tts/types.ts';
import { TtsTransportError } from '../tts/types.ts';
import type { SentenceLedger } from './sentences.ts';
import { sessionVoice } from './turn-voice.ts';
import { ttsFailureCode, turnFailure } from './turn-faults.ts';
import type { CallerFlow, TurnFailure } from './types.ts';

/** PCM waiting for the Opus encoder at most before the turn stops pulling audio (~11 s at 24 kHz). */
export const OPUS_BACKLOG_BYTES = 512 * 1024;

/** What the session needs of its turn. */
export interface SessionTurn {
  /** The turn has ended (error or cancelled): nothing more is read or spoken. */
  readonly ended: boolean;
  /** Settles when the turn ends early. */
  readonly whenEnded: Promise<void>;
  endWithError(failure: TurnFailure): void;
  readonly trace: TurnTrace;
  readonly ledger: SentenceLedger;
  readonly tts: TtsTransport;
  /** Aborted when the turn ends: an open still in flight gives up. */
  readonly signal: AbortSignal;
  readonly flow: CallerFlow | undefined;
  readonly opus: OpusTurnOutput | null;
}

export class TurnSession {
  readonly #turn: SessionTurn;
  #session: TtsSession | null = null;
  #closing = false;
  /** The open session, once open (null: none, the open failed, or the turn ended meanwhile). */
  opened: Promise<TtsSession | null> = Promise.resolve(null);
  #pumped: Promise<void> = Promise.resolve();

  constructor(turn: SessionTurn) {
    this.#turn = turn;
  }

  /** The session if it is open now. */
  get now(): TtsSession | null {
    return this.#session;
  }

  /** Opens the session and starts pumping its events. */
  open(settings: Required<VoiceSettings>): void {
    this.opened = this.#open(settings);
    this.#pumped = this.opened.then((session) => (session ? this.#pump(session) : undefined));
  }

  /** Closes the session at once (a session still opening is closed once it opens). Idempotent. */
  close(): void {
    this.#closing = true;
    try {
      this.#session?.close();
    } catch (error) {
      this.#turn.endWithError(turnFailure(error, 'closing the TTS session'));
    }
  }

  /** Closes the session and settles once it is closed and its pump has ended. */
  async closed(): Promise<void> {
    this.close();
    await this.opened;
    await this.#pumped;
  }

  async #open(settings: Required<VoiceSettings>): Promise<TtsSession | null> {
    const turn = this.#turn;
    let session: TtsSession;
    try {
      session = await turn.tts.open(settings, turn.signal, turn.trace.tts);
    } catch (error) {
      turn.endWithError({ code: ttsFailureCode(error), message: `cannot open a TTS session: ${errorMessage(error)}` });
      return null;
    }
    this.#session = session;
    if (this.#closing || turn.ended) {
      this.close();
      return null;
    }
    try {
      const { language, problem } = sessionVoice(settings.voice, await session.ready);
      if (language) turn.trace.annotate({ 'kokoro.language': language });
      if (problem) turn.endWithError(problem);
    } catch (error) {
      turn.endWithError({ code: ttsFailureCode(error), message: `the TTS session failed: ${errorMessage(error)}` });
    }
    return session;
  }

  /** Feeds the session's events to the ledger until the session ends or the turn does. A throw of
   *  the session's stream is the TTS's failure; a throw while handling an event is ours. */
  async #pump(session: TtsSession): Promise<void> {
    const turn = this.#turn;
    try {
      turn.ledger.sampleRate = (await session.ready).sample_rate;
      const events = session.events()[Symbol.asyncIterator]();
      for (;;) {
        let next: IteratorResult<TtsEvent>;
        try {
          next = await events.next();
        } catch (error) {
          const code = error instanceof TtsTransportError ? error.code : 'internal';
          const message = `TTS stream failed (${code}): ${errorMessage(error)}`;
          turn.endWithError({ code: ttsFailureCode(error), message });
          return;
        }
        if (next.done || turn.ended) return;
        turn.trace.ttsEvent(next.value);
        turn.ledger.onTtsEvent(next.value);
        if (next.value.type === 'audio' && this.#behind()) await this.#catchUp(session);
      }
    } catch (error) {
      turn.endWithError(turnFailure(error, "the turn's audio pump"));
    } finally {
      turn.ledger.releaseAll();
    }
  }

  /** The caller, or the Opus encoder before it, has more than enough audio waiting. */
  #behind(): boolean {
    const turn = this.#turn;
    return turn.flow?.behind === true || (turn.opus?.backlogBytes ?? 0) > OPUS_BACKLOG_BYTES;
  }

  /** Waits (with the TTS session paused) until the caller and the encoder have caught up. */
  async #catchUp(session: TtsSession): Promise<void> {
    const turn = this.#turn;
    session.pause?.();
    try {
      while (!turn.ended && this.#behind()) {
        const flow = turn.flow;
        const waiting = flow?.behind ? flow.caughtUp() : turn.opus!.drained(OPUS_BACKLOG_BYTES / 2);
        await Promise.race([waiting, turn.whenEnded]);
      }
    } finally {
      session.resume?.();
    }
  }
}
