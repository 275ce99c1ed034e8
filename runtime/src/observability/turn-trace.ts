// What the turn pipeline tells about one turn, for its trace (src/observability/otel-turn-trace.ts)
// and its metrics (turn-metrics.ts): one small interface, called at the turn's few landmarks, so
// that the pipeline holds no span code. NoTurnTrace is the default: it only counts the TTS
// refusals (for the metrics line) and does nothing else, so a turn with tracing off pays nothing.
import type { TtsEvent, TtsSessionObserver } from '../tts/types.ts';

export type TurnOutcome = 'done' | 'cancelled' | 'error';

export interface SentenceInfo {
  index: number;
  /** Characters of the text spoken. */
  characters: number;
  kind: 'answer' | 'filler';
}

export type ToolEvent =
  { type: 'tool_start'; id: string; name: string } | { type: 'tool_end'; id: string; name: string; error?: string };

export interface TurnTrace {
  /** Runs the turn's work with the turn span active (Strands' agent and model spans nest under it). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Hears the TTS session's streams: connects, retries, refusals, reconnects. */
  readonly tts: TtsSessionObserver;
  /** TTS sessions refused (`overloaded`) during the turn, retried or not. */
  readonly refusals: number;
  /** The trace's id (W3C, 32 hex digits) when the turn is traced, for its log line. */
  readonly traceId?: string | undefined;
  /** Facts learnt on the way (the voice's language, ...). */
  annotate(attributes: Readonly<Record<string, string | number | boolean>>): void;
  firstToken(): void;
  /** A sentence's text is complete (its span starts). */
  sentence(id: string, info: SentenceInfo): void;
  /** The sentence goes to the TTS server now: the trace parent for the server's spans of it. */
  sentenceSent(id: string): string | undefined;
  /** A TTS event (first audio, last audio, a failed sentence, a reconnect). */
  ttsEvent(event: TtsEvent): void;
  tool(event: ToolEvent): void;
  /** The turn was cut short (barge-in, the caller gone): what was not yet heard is dropped. */
  cut(reason: string): void;
  end(outcome: TurnOutcome, errorCode?: string): void;
  /** A voice turn: the customer's end of speech, their final words, the turn's start (performance.now ms). */
  voice(path: VoicePath, startedAt: number): void;
}

/** The voice path before a voice turn (src/voice's VoiceTurnFacts have these). */
export interface VoicePath {
  endOfSpeechAt: number;
  transcriptAt: number;
}

/** Tracing off: counts refusals, nothing else. */
export class NoTurnTrace implements TurnTrace {
  #refusals = 0;
  readonly tts: TtsSessionObserver = {
    streamTry: () => (outcome) => {
      if (outcome.result === 'refused') this.#refusals++;
    },
  };

  get refusals(): number {
    return this.#refusals;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  annotate(): void {}
  firstToken(): void {}
  sentence(): void {}
  sentenceSent(): string | undefined {
    return undefined;
  }
  ttsEvent(): void {}
  tool(): void {}
  cut(): void {}
  end(): void {}
  voice(): void {}
}
