// Streaming rational resampler (24 kHz model output to 16 or 8 kHz) with a Kaiser-windowed sinc
// low-pass, whose state carries across the pieces of one utterance so that joins do not click.
//
// Written by hand because the one maintained npm candidate, @alexanderolsen/libsamplerate-js,
// never sets libsamplerate's end_of_input flag in its streaming API (so each utterance's tail
// would be lost or need padding tricks) and runs each converter in its own WASM heap that must be
// freed by hand; we need only two fixed integer ratios (2/3 and 1/3), which a polyphase FIR does
// exactly and synchronously in ~100 lines.
//
// Output sample n sits at input time n * down / up. The filter is centred on it (zero phase), so
// the output lines up with the input and an utterance of N input samples yields exactly
// ceil(N * up / down) output samples once flushed.

/** Half-width of the filter in input samples; 129 taps at 24 kHz. */
const HALF_TAPS = 64;
/** Kaiser beta for ~80 dB stop-band attenuation. */
const KAISER_BETA = 8;
/** Cut-off as a fraction of the output rate: pass-band to ~0.4 fs_out, stop-band from 0.5 fs_out. */
const CUTOFF = 0.45;

export class StreamingResampler {
  readonly inRate: number;
  readonly outRate: number;
  readonly #up: number;
  readonly #down: number;
  /** phases[p][m + HALF_TAPS]: weight of input i0 - m for an output whose phase is p. */
  readonly #phases: Float64Array[];
  /** Buffered input; history[0] is absolute input index `historyStart`. */
  #history = new Float32Array(0);
  #historyStart = 0;
  #inputTotal = 0;
  #nextOutput = 0;
  #flushed = false;

  constructor(inRate: number, outRate: number) {
    if (!Number.isInteger(inRate) || !Number.isInteger(outRate) || inRate <= 0 || outRate <= 0) {
      throw new Error(`resampler rates must be positive integers, got ${inRate} -> ${outRate}`);
    }
    if (outRate > inRate) throw new Error(`resampler only downsamples, got ${inRate} -> ${outRate}`);
    const g = gcd(inRate, outRate);
    this.inRate = inRate;
    this.outRate = outRate;
    this.#up = outRate / g;
    this.#down = inRate / g;
    this.#phases = designPhases(this.#up, (CUTOFF * outRate) / inRate);
  }

  /** Resample the next block of the stream; returns every output sample that is now complete. */
  process(input: Float32Array): Float32Array {
    if (this.#flushed) throw new Error('resampler already flushed');
    this.#append(input);
    return this.#emit(this.#inputTotal - 1 - HALF_TAPS);
  }

  /** End of the stream: emit the remaining samples (input beyond the end counts as silence). */
  flush(): Float32Array {
    if (this.#flushed) return new Float32Array(0);
    this.#flushed = true;
    const total = Math.ceil((this.#inputTotal * this.#up) / this.#down);
    return this.#emitCount(total - this.#nextOutput);
  }

  #append(input: Float32Array): void {
    const keepFrom = Math.max(
      0,
      Math.floor((this.#nextOutput * this.#down) / this.#up) - HALF_TAPS - this.#historyStart,
    );
    const kept = this.#history.subarray(keepFrom);
    const next = new Float32Array(kept.length + input.length);
    next.set(kept, 0);
    next.set(input, kept.length);
    this.#history = next;
    this.#historyStart += keepFrom;
    this.#inputTotal += input.length;
  }

  /** Emit outputs whose centre input index is at most `lastCentre`. */
  #emit(lastCentre: number): Float32Array {
    if (lastCentre < 0) return new Float32Array(0);
    const lastOutput = Math.floor(((lastCentre + 1) * this.#up - 1) / this.#down);
    return this.#emitCount(lastOutput + 1 - this.#nextOutput);
  }

  #emitCount(count: number): Float32Array {
    const out = new Float32Array(Math.max(0, count));
    for (let k = 0; k < out.length; k++) {
      const t = (this.#nextOutput + k) * this.#down;
      const phase = this.#phases[t % this.#up]!;
      const centre = Math.floor(t / this.#up) - this.#historyStart;
      let acc = 0;
      for (let m = -HALF_TAPS; m <= HALF_TAPS; m++) {
        const j = centre - m;
        if (j >= 0 && j < this.#history.length) acc += phase[m + HALF_TAPS]! * this.#history[j]!;
      }
      out[k] = acc;
    }
    this.#nextOutput += out.length;
    return out;
  }
}

/** Polyphase split of one windowed-sinc kernel; each phase is normalised to unit DC gain. */
function designPhases(up: number, cutoffPerInputSample: number): Float64Array[] {
  const phases: Float64Array[] = [];
  const i0Beta = besselI0(KAISER_BETA);
  for (let p = 0; p < up; p++) {
    const taps = new Float64Array(2 * HALF_TAPS + 1);
    let sum = 0;
    for (let m = -HALF_TAPS; m <= HALF_TAPS; m++) {
      const t = p / up + m; // distance from the output instant, in input samples
      const x = t / (HALF_TAPS + 1);
      const window = Math.abs(x) >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - x * x)) / i0Beta;
      const arg = 2 * cutoffPerInputSample * t;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      const w = 2 * cutoffPerInputSample * sinc * window;
      taps[m + HALF_TAPS] = w;
      sum += w;
    }
    for (let i = 0; i < taps.length; i++) taps[i]! /= sum;
    phases.push(taps);
  }
  return phases;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
