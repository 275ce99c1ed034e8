// The voice session's shapes: what it tells the caller, what it asks of the WebSocket session,
// what it is opened with, and what a voice turn reports (voice-session.ts).
import type { SpeechToText, VoiceActivityDetector } from '../stt/types.ts';
import type { TurnLanguage, VoiceInput } from '@kokoro-speech/protocol';
import type { VoiceOptions } from './voice-options.ts';
import type { HeldAnswer } from './preemptive-turn.ts';

/** What the turn runner reports of a voice turn (metrics, trace); times are performance.now() ms. */
export interface VoiceTurnFacts {
  /** When the audio in which the customer's last words ended arrived. */
  endOfSpeechAt: number;
  /** When the STT's final words arrived. */
  transcriptAt: number;
  /** Times the customer cut this turn's answer by voice (0 or 1). */
  bargeIns: number;
}

export type VoiceEvent =
  | { type: 'listening'; input: VoiceInput }
  | { type: 'transcript'; text: string; final: boolean }
  | { type: 'listen_end'; turns: number }
  | { type: 'error'; code: string; message: string };

/** The WebSocket session the voice session speaks through. */
export interface VoiceHost {
  send(event: VoiceEvent): void;
  /** Runs a turn with the customer's words as its prompt (a running turn is cut first). */
  turn(prompt: string, facts: VoiceTurnFacts): void;
  /** Starts answering `prompt` ahead of its turn (VOICE_PREEMPTIVE), held until a turn with the
   *  same prompt adopts it; undefined when it cannot (a turn is running). Absent: never. */
  preempt?(prompt: string): HeldAnswer | undefined;
  /** A turn is running and not cut. */
  speaking(): boolean;
  /** Cuts the running turn as a cancel does; `playedMs` when the caller knows what it played. */
  cut(playedMs: number | undefined): void;
}

export interface VoiceSessionSetup {
  stt: SpeechToText;
  /** Audio waits (bounded) for it while it loads. */
  vad: Promise<VoiceActivityDetector>;
  options: VoiceOptions;
  input: VoiceInput;
  language: TurnLanguage;
  voice: string | undefined;
  /** The largest frame AgentCore carries (WS_MAX_FRAME_BYTES). */
  maxFrameBytes: number;
}
