// One utterance's audio path: 24 kHz float pieces in, bytes of the chosen format and rate out.
import type { AudioFormat, SampleRate } from '@kokoro-speech/protocol';
import { floatToAlaw, floatToMulaw, floatToS16le } from './pcm.ts';
import { StreamingResampler } from './resample.ts';
import { wavHeader } from './wav.ts';

export interface OutputAudio {
  format: AudioFormat;
  /** Rate of the bytes sent; mulaw and alaw are always 8000. */
  sampleRate: SampleRate;
}

/** G.711 (mu-law or A-law): one byte a sample, 8 kHz by definition. */
export const isG711 = (format: AudioFormat): format is 'mulaw' | 'alaw' => format === 'mulaw' || format === 'alaw';

/** The rate a format is sent at: G.711 is 8 kHz by definition. */
export function effectiveSampleRate(format: AudioFormat, requested: SampleRate): SampleRate {
  return isG711(format) ? 8000 : requested;
}

/** HTTP headers that describe an audio stream (Content-Type plus explicit format/rate/channels). */
export function audioHeaders(out: OutputAudio): Record<string, string> {
  const contentType =
    out.format === 'wav'
      ? 'audio/wav'
      : out.format === 'mulaw'
        ? `audio/PCMU;rate=${out.sampleRate};channels=1`
        : out.format === 'alaw'
          ? `audio/PCMA;rate=${out.sampleRate};channels=1`
          : `audio/L16;rate=${out.sampleRate};channels=1`;
  return {
    'content-type': contentType,
    'x-audio-format': out.format,
    'x-sample-rate': String(out.sampleRate),
    'x-channels': '1',
  };
}

export function bytesPerSample(format: AudioFormat): number {
  return isG711(format) ? 1 : 2;
}

/**
 * Encodes one utterance. `write` takes each synthesised piece as it comes; `end` flushes the
 * resampler. The first bytes of a `wav` stream are its streaming header.
 */
export class UtteranceEncoder {
  readonly out: OutputAudio;
  #resampler: StreamingResampler | null;
  readonly #inputRate: number;
  #headerPending: boolean;
  /** Samples emitted so far, at the output rate. */
  samples = 0;

  constructor(out: OutputAudio, inputRate: number) {
    this.out = out;
    this.#inputRate = inputRate;
    this.#resampler = out.sampleRate === inputRate ? null : new StreamingResampler(inputRate, out.sampleRate);
    this.#headerPending = out.format === 'wav';
  }

  write(piece: Float32Array): Buffer {
    return this.#encode(this.#resampler ? this.#resampler.process(piece) : piece);
  }

  /**
   * `ms` of silence: exactly round(ms * rate / 1000) zero samples at the output rate. The resampler
   * is flushed first (what was spoken ends as if silence followed, which it does) and begins anew
   * after, so no speech leaks into the pause and its length does not depend on the resampling.
   */
  pause(ms: number): Buffer {
    const tail = this.#resampler ? this.#resampler.flush() : new Float32Array(0);
    if (this.#resampler) this.#resampler = new StreamingResampler(this.#inputRate, this.out.sampleRate);
    const silence = new Float32Array(tail.length + Math.round((ms * this.out.sampleRate) / 1000));
    silence.set(tail, 0);
    return this.#encode(silence);
  }

  end(): Buffer {
    return this.#encode(this.#resampler ? this.#resampler.flush() : new Float32Array(0));
  }

  #encode(samples: Float32Array): Buffer {
    this.samples += samples.length;
    const { format } = this.out;
    const body =
      format === 'mulaw' ? floatToMulaw(samples) : format === 'alaw' ? floatToAlaw(samples) : floatToS16le(samples);
    if (!this.#headerPending) return body;
    this.#headerPending = false;
    return Buffer.concat([wavHeader({ sampleRate: this.out.sampleRate, encoding: 'pcm16' }), body]);
  }
}
