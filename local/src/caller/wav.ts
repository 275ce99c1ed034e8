// WAV (RIFF, PCM s16le mono) encoding for the CLI's answer file.

const HEADER_BYTES = 44;

/** A 44-byte canonical WAV header for `dataBytes` of 16-bit mono PCM at `sampleRate`. */
export function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`bad sample rate: ${sampleRate}`);
  if (!Number.isInteger(dataBytes) || dataBytes < 0 || dataBytes % 2 !== 0) {
    throw new RangeError(`PCM s16le data must be a whole number of samples, got ${dataBytes} bytes`);
  }
  const h = Buffer.alloc(HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** The whole WAV file for these PCM s16le chunks. */
export function encodeWav(sampleRate: number, chunks: readonly Uint8Array[]): Buffer {
  const data = Buffer.concat(chunks);
  return Buffer.concat([wavHeader(sampleRate, data.byteLength), data]);
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  samples: number;
  durationMs: number;
}

/** Reads back a canonical PCM WAV header (used by tests and to check what was written). */
export function parseWav(file: Uint8Array): WavInfo {
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (b.byteLength < HEADER_BYTES || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  if (b.readUInt32LE(4) !== b.byteLength - 8) throw new Error('RIFF size does not match the file size');
  if (b.toString('ascii', 12, 16) !== 'fmt ' || b.readUInt16LE(20) !== 1) throw new Error('not PCM');
  if (b.toString('ascii', 36, 40) !== 'data') throw new Error('data chunk missing');
  const channels = b.readUInt16LE(22);
  const sampleRate = b.readUInt32LE(24);
  const bitsPerSample = b.readUInt16LE(34);
  const dataBytes = b.readUInt32LE(40);
  if (dataBytes !== b.byteLength - HEADER_BYTES) throw new Error('data size does not match the file size');
  const samples = dataBytes / (channels * (bitsPerSample / 8));
  return { sampleRate, channels, bitsPerSample, samples, durationMs: (samples / sampleRate) * 1000 };
}
