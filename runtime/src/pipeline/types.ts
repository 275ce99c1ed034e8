// Types of the turn pipeline: what it is given, what it emits, what it returns.
import type { AudioFormat, SampleRate } from '@kokoro-speech/protocol';
import type { LlmProvider } from '../llm/types.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { MetricsEvent, SpokenLanguage, TurnEvent, TurnRequest } from '@kokoro-speech/protocol';
import type { PolicyPlanner, TurnPolicy } from './policies.ts';
import type { ToolBox } from '../tools/toolbox.ts';
import type { LlmTimeouts } from '../llm/model-watch.ts';
import type { TurnTrace } from '../observability/index.ts';

/**
 * What a turn reads its answer from (a Strands agent loop, src/conversation/answer.ts): the
 * answer's text as written, and its tool boundaries. `tool_call`: the model began asking for a
 * tool (the text before it is complete); `tool_start` / `tool_end`: a tool ran; `cycle`: the
 * model started writing again after its tools (a new model call: a new text offset space).
 */
export type AnswerEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string }
  | { type: 'tool_start'; id: string; name: string }
  | { type: 'tool_end'; id: string; name: string; error?: string }
  | { type: 'cycle' };

/** Streams one turn's answer; stops promptly (rejecting, typically with an AbortError) on abort. */
export type AnswerSource = (signal: AbortSignal) => AsyncIterable<AnswerEvent>;

/** Turn events as the pipeline emits them: audio carries bytes (SSE base64-encodes them, WS sends binary). */
export type PipelineEvent =
  Exclude<TurnEvent, { type: 'audio' }> | { type: 'audio'; id: string; seq: number; data: Uint8Array };

export interface VoiceDefaults {
  voice: string;
  speed: number;
  format: AudioFormat;
  sample_rate: SampleRate;
}

export interface TurnContext {
  llm: LlmProvider;
  tts: TtsTransport;
  defaults: VoiceDefaults;
  systemPrompt?: string;
  /** Tools of the agent loop, their limits and the spoken filler; default: none. */
  tools?: ToolBox;
  /** The LLM's first-token and idle timeouts (llm/model-watch.ts); default 20 s and 15 s. */
  llmTimeouts?: LlmTimeouts;
  /** How a piece becomes the text spoken; default the text front end's normalizeForSpeech
   *  (src/text). The fault tests pass one that throws, to prove the turn's cleanup. */
  normalize?: (piece: string, language: SpokenLanguage) => string;
}

/**
 * How far behind the caller is, for a turn to slow its own upstream rather than buffer for it
 * (the server's connection to the caller: src/server/caller-flow.ts).
 */
export interface CallerFlow {
  /** What was emitted is mostly still waiting to be written to the caller. */
  readonly behind: boolean;
  /** Resolves once the caller has taken enough of it, or is gone. */
  caughtUp(): Promise<void>;
}

export interface TurnOptions {
  request: TurnRequest;
  /** Called synchronously for each event, in order. */
  emit(event: PipelineEvent): void;
  /** The caller's side of `emit`: while it is behind, the turn stops pulling audio from the TTS
   *  session (and pauses it). Default: a caller that keeps up. */
  flow?: CallerFlow;
  /** Aborting cancels the turn (caller gone, barge-in). */
  signal?: AbortSignal;
  /** Default: the request's mode ('stream' unless 'batch'); a benchmark passes its own planner. */
  policy?: TurnPolicy | PolicyPlanner;
  requestId?: string;
  /** The turn fails with `timeout` after this long (a hung LLM or TTS stream must not hold the caller). */
  timeoutMs?: number;
  /** The caller's stream ends this long from now (MAX_STREAM_SECONDS: inside AgentCore's 60-minute
   *  streaming limit): the turn fails with `stream_limit` then, before AgentCore cuts it. */
  streamLimitMs?: number;
  /** Where the answer comes from; default: a fresh agent on the context's model and tools (a
   *  one-shot turn, no memory). A conversation passes its session's agent. */
  answer?: AnswerSource;
  /** The conversation's session id, announced in the `start` event. */
  sessionId?: string;
  /** Hears the turn's landmarks for its trace and metrics (src/observability); default: nothing. */
  trace?: TurnTrace;
}

/** A word of a sentence as shown, with its audio time (from the container's `words` messages). */
export interface WordTiming {
  /** Offsets in the sentence's `text` (a span the normaliser spoke as several words is one). */
  textStart: number;
  textEnd: number;
  /** ms from the sentence's first sample. */
  startMs: number;
  endMs: number;
}

/** Per-sentence timings in ms since the turn started (for the benchmark and logs), and where the
 *  sentence is in the answer's text (for cutting the history at what was heard). */
export interface SentenceTiming {
  id: string;
  index: number;
  text: string;
  spoken: string;
  /** `answer`: a piece of the LLM's text; `filler`: spoken while a tool ran, in no message. */
  kind: 'answer' | 'filler';
  /** The model call (cycle) whose text holds the piece, and the piece's offsets in that text. */
  cycle: number;
  textStart: number;
  textEnd: number;
  /** Its words as shown, when the TTS server gives them (protocol v1 `words`); the history cut uses
   *  them unless estimated, else positions are proportional in the sentence. */
  words?: WordTiming[];
  /** The container estimated the word times from token counts (its model has no durations output). */
  wordsEstimated?: true;
  /** Audio bytes delivered to the caller so far, and their duration. */
  deliveredBytes: number;
  deliveredMs: number;
  /** performance.now() of the sentence's first audio chunk (wall clock, for playback estimates). */
  firstAudioAt?: number;
  /** The piece was complete in the token stream. */
  readyMs: number;
  /** speak() was called. */
  sentMs?: number;
  firstAudioMs?: number;
  synthesisMs?: number;
  /** The container's wait from receiving the text to starting the model (includes phonemisation). */
  queueMs?: number;
  durationMs?: number;
  samples?: number;
}

/** Why a turn failed: its `error` event's code and message. */
export type TurnFailure = { code: string; message: string };

export interface TurnResult {
  requestId: string;
  outcome: 'completed' | 'cancelled' | 'failed';
  metrics: Omit<MetricsEvent, 'type'>;
  /** In audio order (sentence index order). */
  sentences: SentenceTiming[];
  /** performance.now() when the turn's first audio chunk was delivered; null when none was. */
  firstAudioAt: number | null;
  /** performance.now() when the turn ended. */
  endedAt: number;
  error?: { code: string; message: string };
}
