// Sample encodings: float32 model output to 16-bit little-endian PCM and to G.711 mu-law and A-law
// bytes (ITU-T G.711: https://www.itu.int/rec/T-REC-G.711; docs/design/drop-in-routes.md#g711).

/** Float samples in [-1, 1] (clipped outside) to signed 16-bit little-endian PCM. */
export function floatToS16le(samples: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    out.writeInt16LE(toInt16(samples[i]!), i * 2);
  }
  return out;
}

function toInt16(x: number): number {
  if (!(x === x)) return 0; // NaN from a broken model run must not become noise
  const v = Math.round(x * 32767);
  return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

const MULAW_BIAS = 0x84;
const MULAW_CLIP = 32635;

/** One 16-bit sample to its G.711 mu-law byte (ITU-T G.711, segment/mantissa form). */
export function linearToMulaw(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > MULAW_CLIP) s = MULAW_CLIP;
  s += MULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** G.711 mu-law byte back to a 16-bit sample (used by tests and clients that decode). */
export function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + MULAW_BIAS) << exponent) - MULAW_BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

/** Float samples to mu-law bytes, one byte per sample. */
export function floatToMulaw(samples: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToMulaw(toInt16(samples[i]!));
  return out;
}

/**
 * One 16-bit sample to its G.711 A-law byte: the 13-bit magnitude in segment/mantissa form, sign
 * bit set for positive values, even bits inverted (XOR 0x55) as the Recommendation transmits them.
 */
export function linearToAlaw(sample: number): number {
  const positive = sample >= 0;
  // Negative values are coded one's-complement style: -1..-8 share the code of 0..7.
  const magnitude = Math.min(0xfff, (positive ? sample : -sample - 1) >> 3);
  let segment = 0;
  for (let v = magnitude >> 5; v > 0 && segment < 7; v >>= 1) segment++;
  const mantissa = (magnitude >> (segment === 0 ? 1 : segment)) & 0x0f;
  return ((positive ? 0x80 : 0) | (segment << 4) | mantissa) ^ 0x55;
}

/** G.711 A-law byte back to a 16-bit sample (the middle of its quantisation interval). */
export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  const magnitude = segment === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

/** Float samples to A-law bytes, one byte per sample. */
export function floatToAlaw(samples: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = linearToAlaw(toInt16(samples[i]!));
  return out;
}
