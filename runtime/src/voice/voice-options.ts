// The voice session's bounds and turn-taking settings (VOICE_* variables, runtime/README.md;
// why each default: docs/design/voice-in.md).
export interface VoiceOptions {
  /** Silence after the STT's final words before the customer's turn ends (VOICE_END_OF_TURN_MS). */
  endOfTurnMs: number;
  /** Speech over the agent shorter than this does not cut it: a cough, "mm-hm" (VOICE_BARGE_IN_MIN_MS). */
  bargeInMinMs: number;
  /** How far the audio received may run ahead of the wall clock (VOICE_MAX_AHEAD_MS): past it
   *  frames are refused with `audio_too_fast`, so that nothing waits without bound. */
  maxAheadMs: number;
  /** Audio without speech for this long is reported once as `no_speech` (VOICE_NO_SPEECH_MS). */
  noSpeechMs: number;
  /** The STT must answer an utterance within this long after its end (VOICE_STT_TIMEOUT_MS). */
  sttTimeoutMs: number;
  /** Start the LLM on stable words before the end of the turn, discarded if the turn's words
   *  differ (VOICE_PREEMPTIVE; preemptive-turn.ts). */
  preemptive: boolean;
}

/**
 * 500 ms of silence after the final (measured: docs/benchmarks/voice-to-voice.md; LiveKit Agents'
 * documented minimum endpointing delay), 250 ms of speech to cut the agent, 10 s ahead of real
 * time, 30 s of silence, 10 s for the STT.
 */
export const DEFAULT_VOICE_OPTIONS: VoiceOptions = {
  endOfTurnMs: 500,
  bargeInMinMs: 250,
  maxAheadMs: 10_000,
  noSpeechMs: 30_000,
  sttTimeoutMs: 10_000,
  preemptive: false,
};
