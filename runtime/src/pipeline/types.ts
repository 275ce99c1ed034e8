// Types of the turn pipeline: what it is given, what it emits, what it returns.
import type { AudioFormat, SampleRate } from '@kokoro-speech/protocol';
import type { LlmProvider } from '../llm/types.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { MetricsEvent, TurnEvent, TurnRequest, TurnWord } from '@kokoro-speech/protocol';
import type { TurnPolicy } from './policies.ts';

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
}

export interface TurnOptions {
  request: TurnRequest;
  /** Called synchronously for each event, in order. */
  emit(event: PipelineEvent): void;
  /** Aborting cancels the turn (caller gone, barge-in). */
  signal?: AbortSignal;
  /** Default: the request's mode ('stream' unless 'batch'). */
  policy?: TurnPolicy;
  requestId?: string;
  /** The turn fails with `timeout` after this long (a hung LLM or TTS stream must not hold the caller). */
  timeoutMs?: number;
}

/** Per-sentence timings in ms since the turn started (for the benchmark and logs). */
export interface SentenceTiming {
  id: string;
  index: number;
  text: string;
  spoken: string;
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
  /** Its words as shown, with times on the turn's audio clock (when the TTS server gives them). */
  words?: TurnWord[];
}

export interface TurnResult {
  requestId: string;
  outcome: 'completed' | 'cancelled' | 'failed';
  metrics: Omit<MetricsEvent, 'type'>;
  sentences: SentenceTiming[];
  error?: { code: string; message: string };
}
