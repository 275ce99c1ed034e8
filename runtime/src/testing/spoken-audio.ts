// Real speech for tests, made at test time: espeak-ng (the WebAssembly build the container already
// uses for phonemes, @echogarden/espeak-ng-emscripten, which also synthesises) speaks a text, and
// the result is resampled to the 16 kHz mono s16le every STT provider takes. Also silence and
// seeded white noise, the audio that must give no speech. Nothing is committed as a fixture.
import { STT_SAMPLE_RATE } from '../stt/types.ts';

interface EspeakWorker {
  set_voice(name: string, lang: string, gender: number, age: number, variant: number): number;
  synthesize(text: string, onChunk: (samples: Int16Array | null) => number): void;
  readonly samplerate: number;
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
}

let worker: Promise<EspeakWorker> | undefined;

async function espeak(): Promise<EspeakWorker> {
  worker ??= (async () => {
    // @ts-expect-error the package has no type declarations; EspeakModule above is what we use of it
    const { default: factory } = (await import('@echogarden/espeak-ng-emscripten')) as {
      default: () => Promise<EspeakModule>;
    };
    return new (await factory()).eSpeakNGWorker();
  })();
  return worker;
}

/** `text` spoken by espeak-ng's `voice` (default en-us), 16 kHz mono s16le. */
export async function speak(text: string, voice = 'en-us'): Promise<Int16Array> {
  const w = await espeak();
  if (w.set_voice(voice, '', 0, 0, 0) !== 0) throw new Error(`espeak-ng has no voice ${voice}`);
  const chunks: Int16Array[] = [];
  w.synthesize(text, (samples) => {
    if (samples) chunks.push(samples.slice());
    return 0;
  });
  const source = new Int16Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) (source.set(c, at), (at += c.length));
  return resample(source, w.samplerate, STT_SAMPLE_RATE);
}

/** Linear interpolation: enough for test speech (espeak-ng's 22.05 kHz has little above 8 kHz). */
export function resample(pcm: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return pcm.slice();
  const out = new Int16Array(Math.floor((pcm.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const x = (i * from) / to;
    const j = Math.floor(x);
    const a = pcm[j] ?? 0;
    const b = pcm[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}

export const silence = (ms: number): Int16Array => new Int16Array((STT_SAMPLE_RATE * ms) / 1000);

/** Seeded white noise at `amplitude` (of full scale); the same seed gives the same samples. */
export function whiteNoise(ms: number, amplitude = 0.1, seed = 1): Int16Array {
  const out = silence(ms);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    // xorshift32: a fixed, portable sequence (Math.random cannot be seeded)
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = Math.round(((s >>> 0) / 2 ** 32 - 0.5) * 2 * amplitude * 32767);
  }
  return out;
}

export function concatPcm(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
