// Speech in: what every speech-to-text provider gives the agent's voice session
// (docs/design/voice-in.md). The session owns the microphone stream and the voice activity detector
// (VAD); a provider turns audio into transcripts. Streaming providers (Amazon Transcribe) hear all
// the audio and find their own ends of utterance; utterance providers (an OpenAI-compatible server,
// the local Whisper-family model) transcribe what the VAD cut, between speechStart and speechEnd.
import type { TurnLanguage } from '@kokoro-speech/protocol';

import type { SttProviderName } from '../config/agent-env.ts';

export { STT_PROVIDERS, type SttProviderName } from '../config/agent-env.ts';

/** The audio every provider takes: 16 kHz mono signed 16-bit little-endian PCM. */
export const STT_SAMPLE_RATE = 16_000;

export interface SttStreamOptions {
  /** The turn's language; the provider maps it to its own code (Transcribe: en-US, es-US, ...). */
  language: TurnLanguage;
  /** The voice of the turn, for an accent the language alone does not say (b*_ voices: en-GB). */
  voice?: string;
  /** Ends the stream at once, as close() does. */
  signal?: AbortSignal;
}

/** What a stream tells the session, in order. Times are in samples of the stream's audio. */
export type SttEvent =
  /** Words so far of the utterance being heard; `stable` is the prefix the provider will not revise. */
  | { type: 'partial'; text: string; stable: string; endSample: number }
  /** An utterance's final words (possibly empty: noise the VAD took for speech). */
  | { type: 'final'; text: string; endSample: number }
  /** The provider failed; the stream ends after it. `code` is an stt_* error code of the turn contract. */
  | { type: 'error'; code: SttErrorCode; message: string; retryable: boolean };

export type SttErrorCode =
  | 'stt_unavailable' // cannot reach or start the provider
  | 'stt_throttled' // the provider refused for rate or quota (Transcribe's LimitExceeded, a 429)
  | 'stt_refused' // the provider refused the request itself (bad audio, language, credentials)
  | 'stt_timeout' // no answer in time
  | 'stt_failed'; // anything else the provider said went wrong

export interface SttStream {
  /** Audio in order; never blocks. A provider that cannot keep up buffers a bounded amount, then fails. */
  write(pcm: Int16Array): void;
  /** The VAD heard speech start at this sample (utterance providers start an utterance). */
  speechStart(sample: number): void;
  /** The VAD heard speech end at this sample (utterance providers transcribe the utterance now). */
  speechEnd(sample: number): void;
  /** No more audio: the last finals come, then the events end. */
  end(): void;
  /** Stop now: no more events; releases the provider's connection. Safe to call twice. */
  close(): void;
  /** The events, ending after end() has flushed, after close(), or after an error event. */
  readonly events: AsyncIterable<SttEvent>;
}

export interface SpeechToText {
  readonly name: SttProviderName;
  /** The languages it can transcribe (a voice turn in another language is refused before it opens). */
  readonly languages: readonly TurnLanguage[];
  /** Whether it needs the VAD's speechStart/speechEnd to cut utterances (false: it endpoints itself). */
  readonly needsVadCuts: boolean;
  open(options: SttStreamOptions): SttStream;
  /** Releases what the provider holds (a model, an HTTP/2 session). */
  close(): Promise<void>;
}

/** Speech onset and end from a VAD with real weights (Silero), over the same 16 kHz audio. */
export type VadEvent = { type: 'speech_start'; sample: number } | { type: 'speech_end'; sample: number };

export interface VoiceActivityDetector {
  /** Feeds audio in order (calls must not overlap); resolves to the onsets and ends decided within it. */
  push(pcm: Int16Array): Promise<VadEvent[]>;
  /** Forgets the state (a new utterance stream). */
  reset(): void;
}
