// Speech onset and end from per-window speech probabilities, with hysteresis (a higher threshold
// to start than to keep going) and two durations: speech must last minSpeechMs before its onset is
// reported (a cough or a click is not speech), and silence must last minSilenceMs before its end is
// (a pause between words is not the end). The figures and why: docs/design/voice-in.md#vad.
import { STT_SAMPLE_RATE, type VadEvent } from './types.ts';

export interface SpeechGateOptions {
  /** Samples per probability (Silero v5 at 16 kHz: 512). */
  windowSamples: number;
  /** A window at or above this starts (or may start) speech. Default 0.5. */
  startThreshold: number;
  /** While speaking, a window below this counts as silence. Default 0.35. */
  endThreshold: number;
  /** Speech (windows at or above startThreshold) shorter than this is never reported. Default 250 ms. */
  minSpeechMs: number;
  /** Silence this long ends speech. Default 500 ms. */
  minSilenceMs: number;
}

export const SPEECH_GATE_DEFAULTS: Omit<SpeechGateOptions, 'windowSamples'> = {
  startThreshold: 0.5,
  endThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 500,
};

export class SpeechGate {
  readonly #window: number;
  readonly #start: number;
  readonly #end: number;
  readonly #minSpeech: number;
  readonly #minSilence: number;
  /** idle: nothing heard; onset: speech heard, not yet long enough; speaking: onset reported. */
  #state: 'idle' | 'onset' | 'speaking' = 'idle';
  #onsetSample = 0;
  #speechSamples = 0;
  #silenceSamples = 0;
  #silenceFrom = 0;

  constructor(options: Partial<SpeechGateOptions> & { windowSamples: number }) {
    const o = { ...SPEECH_GATE_DEFAULTS, ...options };
    if (!(o.endThreshold > 0 && o.endThreshold <= o.startThreshold && o.startThreshold < 1))
      throw new RangeError('speech gate thresholds must satisfy 0 < endThreshold <= startThreshold < 1');
    if (!(o.minSpeechMs >= 0 && o.minSilenceMs >= 0)) throw new RangeError('speech gate durations must be >= 0');
    this.#window = o.windowSamples;
    this.#start = o.startThreshold;
    this.#end = o.endThreshold;
    this.#minSpeech = (o.minSpeechMs * STT_SAMPLE_RATE) / 1000;
    this.#minSilence = (o.minSilenceMs * STT_SAMPLE_RATE) / 1000;
  }

  /** The probability of the window starting at `sample`; returns the event it decides, if any. */
  window(sample: number, probability: number): VadEvent | undefined {
    if (this.#state === 'idle') {
      if (probability < this.#start) return undefined;
      this.#state = 'onset';
      this.#onsetSample = sample;
      this.#speechSamples = this.#silenceSamples = 0;
    }
    if (probability >= this.#end) {
      // Before the onset is reported only confident windows count: Silero's probability trails
      // off after a sound, and that tail must not make a short click long enough.
      if (this.#state === 'speaking' || probability >= this.#start) this.#speechSamples += this.#window;
      this.#silenceSamples = 0;
    } else {
      if (this.#silenceSamples === 0) this.#silenceFrom = sample;
      this.#silenceSamples += this.#window;
    }
    if (this.#state === 'onset') {
      if (this.#speechSamples >= this.#minSpeech) {
        this.#state = 'speaking';
        return { type: 'speech_start', sample: this.#onsetSample };
      }
      // A burst that fell silent before it was long enough: forgotten.
      if (this.#silenceSamples >= this.#minSilence) this.#state = 'idle';
      return undefined;
    }
    if (this.#silenceSamples >= this.#minSilence) {
      this.#state = 'idle';
      return { type: 'speech_end', sample: this.#silenceFrom };
    }
    return undefined;
  }

  reset(): void {
    this.#state = 'idle';
  }
}
