// A WAV file as the customer's microphone: any PCM WAV (8, 16, 24 or 32-bit integer, or 32-bit
// float; any rate; mono, or stereo and more, mixed down) to the 16 kHz mono s16le a voice session
// takes (docs/contracts/turn.md, "Voice sessions"). Downsampling uses the container's streaming
// resampler (a windowed-sinc low-pass); the rare rate below 16 kHz (8 kHz telephone audio) is
// upsampled linearly, which adds no content above the source's band, so no filter is needed.
import { StreamingResampler } from '@kokoro-speech/container/audio';

export const VOICE_RATE = 16_000;

export interface WavAudio {
  sampleRate: number;
  channels: number;
  /** Mono samples in [-1, 1]. */
  mono: Float32Array;
}

/** Reads a RIFF/WAVE file's fmt and data chunks (chunks in any order, others skipped). */
export function readWav(file: Buffer): WavAudio {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE')
    throw new Error('not a WAV file (no RIFF/WAVE header)');
  let fmt: { format: number; channels: number; rate: number; bits: number } | undefined;
  let data: Buffer | undefined;
  for (let at = 12; at + 8 <= file.length;) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const body = file.subarray(at + 8, Math.min(file.length, at + 8 + size));
    if (id === 'fmt ') {
      if (body.length < 16) throw new Error(`the WAV file's fmt chunk is ${body.length} bytes, not the 16 it needs`);
      let format = body.readUInt16LE(0);
      if (format === 0xfffe && body.length >= 26) format = body.readUInt16LE(24); // WAVE_FORMAT_EXTENSIBLE
      fmt = { format, channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    } else if (id === 'data') data = body;
    at += 8 + size + (size % 2);
  }
  if (!fmt || !data) throw new Error('the WAV file has no fmt or no data chunk');
  const { format, channels, rate, bits } = fmt;
  if (channels < 1) throw new Error('the WAV file says it has 0 channels');
  if (rate < 1000 || rate > 384_000) throw new Error(`the WAV file's sample rate ${rate} Hz is not 1000-384000 Hz`);
  const float = format === 3 && bits === 32;
  if (!(format === 1 && [8, 16, 24, 32].includes(bits)) && !float)
    throw new Error(`unsupported WAV encoding (format ${format}, ${bits} bits): use PCM or 32-bit float`);
  const width = bits / 8;
  const frames = Math.floor(data.length / (width * channels));
  const mono = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += sampleAt(data, (i * channels + c) * width, bits, float);
    mono[i] = sum / channels;
  }
  return { sampleRate: rate, channels, mono };
}

function sampleAt(data: Buffer, at: number, bits: number, float: boolean): number {
  if (float) return data.readFloatLE(at);
  if (bits === 8) return (data[at]! - 128) / 128;
  if (bits === 16) return data.readInt16LE(at) / 32768;
  if (bits === 24) return data.readIntLE(at, 3) / 8388608;
  return data.readInt32LE(at) / 2147483648;
}

/** The WAV's audio as 16 kHz mono s16le. */
export function toVoicePcm(wav: WavAudio): Int16Array {
  let samples: Float32Array = wav.mono;
  if (wav.sampleRate > VOICE_RATE) {
    const resampler = new StreamingResampler(wav.sampleRate, VOICE_RATE);
    const head = resampler.process(samples);
    const tail = resampler.flush();
    samples = new Float32Array(head.length + tail.length);
    samples.set(head);
    samples.set(tail, head.length);
  } else if (wav.sampleRate < VOICE_RATE) {
    const ratio = wav.sampleRate / VOICE_RATE;
    const out = new Float32Array(Math.round(samples.length / ratio));
    for (let i = 0; i < out.length; i++) {
      const x = i * ratio;
      const j = Math.floor(x);
      const a = samples[j] ?? 0;
      out[i] = a + ((samples[j + 1] ?? a) - a) * (x - j);
    }
    samples = out;
  }
  const pcm = new Int16Array(samples.length);
  // × 32768, the reader's own scale: a 16-bit file at 16 kHz passes through sample for sample.
  for (let i = 0; i < samples.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(samples[i]! * 32768)));
  return pcm;
}
