// The turn's TTS session: opened while the LLM thinks (a refusal reported as `tts_overloaded`,
// other failures as `tts_unavailable`), its voice checked and its language put on the trace once it
// is ready, and its events pumped into the sentence ledger only as fast as the caller takes audio:
// while the caller (or the Opus encoder before it) is behind, the session is paused.
import { errorMessage } from '@kokoro-speech/protocol/errors';
import type { OpusTurnOutput } from '../audio/opus-output.ts';
import type { TurnTrace } from '../observability/index.ts';
import type { TtsSession, TtsTransport, VoiceSettings } from '../tts/types.ts';
import { TtsTransportError } from '../tts/types.ts';
import type { SentenceLedger } from './sentences.ts';
import { sessionVoice } from './turn-voice.ts';
import type { CallerFlow } from './types.ts';

/** PCM waiting for the Opus encoder at most before the turn stops pulling audio (~11 s at 24 kHz). */
export const OPUS_BACKLOG_BYTES = 512 * 1024;

/** The turn's error code for a TTS failure: the service refused us (`tts_overloaded`), or it is unavailable. */
export const ttsFailure = (error: unknown) =>
  error instanceof TtsTransportError && error.code === 'overloaded' ? 'tts_overloaded' : 'tts_unavailable';

/** What the session's opening and pump need of their turn. */
export interface SessionTurn {
  readonly stopped: boolean;
  readonly cancelled: boolean;
  readonly trace: TurnTrace;
  readonly ledger: SentenceLedger;
  readonly tts: TtsTransport;
  /** Aborted when the turn stops. */
  readonly signal: AbortSignal;
  readonly flow: CallerFlow | undefined;
  readonly opus: OpusTurnOutput | null;
  /** Settles when the turn stops (failed or cancelled). */
  readonly halted: Promise<void>;
  /** The session is open: the turn closes it when it stops. */
  adopt(session: TtsSession): void;
  fail(code: string, message: string): void;
}

/** Opens the session; null when it cannot be opened or the turn stopped meanwhile. */
export async function openTurnSession(
  turn: SessionTurn,
  settings: Required<VoiceSettings>,
): Promise<TtsSession | null> {
  try {
    const session = await turn.tts.open(settings, turn.signal, turn.trace.tts);
    if (turn.stopped) {
      session.close();
      return null;
    }
    turn.adopt(session);
    const { language, problem } = sessionVoice(settings.voice, await session.ready);
    if (language) turn.trace.annotate({ 'kokoro.language': language });
    if (problem) turn.fail(problem.code, problem.message);
    return session;
  } catch (error) {
    if (!turn.cancelled) turn.fail(ttsFailure(error), `cannot open a TTS session: ${errorMessage(error)}`);
    return null;
  }
}

/** Feeds the session's events to the ledger until the session ends or the turn stops. */
export async function pumpSessionEvents(turn: SessionTurn, session: TtsSession): Promise<void> {
  try {
    turn.ledger.sampleRate = (await session.ready).sample_rate;
    for await (const event of session.events()) {
      if (turn.stopped) break;
      turn.trace.ttsEvent(event);
      turn.ledger.onTtsEvent(event);
      if (event.type === 'audio' && behind(turn)) await catchUp(turn, session);
    }
  } catch (error) {
    if (!turn.cancelled) {
      const code = error instanceof TtsTransportError ? error.code : 'internal';
      turn.fail(ttsFailure(error), `TTS stream failed (${code}): ${errorMessage(error)}`);
    }
  } finally {
    turn.ledger.releaseAll();
  }
}

/** The caller, or the Opus encoder before it, has more than enough audio waiting. */
function behind(turn: SessionTurn): boolean {
  return turn.flow?.behind === true || (turn.opus?.backlogBytes ?? 0) > OPUS_BACKLOG_BYTES;
}

/** Waits (with the TTS session paused) until the caller and the encoder have caught up. */
async function catchUp(turn: SessionTurn, session: TtsSession): Promise<void> {
  session.pause?.();
  try {
    while (!turn.stopped && behind(turn)) {
      const flow = turn.flow;
      const waiting = flow?.behind ? flow.caughtUp() : turn.opus!.drained(OPUS_BACKLOG_BYTES / 2);
      await Promise.race([waiting, turn.halted]);
    }
  } finally {
    session.resume?.();
  }
}
