// WAV files of the caller's answer: written with the container's WAV header writer (PCM s16le
// mono), and read back to check what was written.
import { WAV_HEADER_BYTES as HEADER_BYTES, wavHeader } from '@kokoro-speech/container/audio';

/** The whole WAV file for these PCM s16le chunks. */
export function encodeWav(sampleRate: number, chunks: readonly Uint8Array[]): Buffer {
  const data = Buffer.concat(chunks);
  return Buffer.concat([wavHeader({ sampleRate, encoding: 'pcm16' }, data.byteLength), data]);
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
