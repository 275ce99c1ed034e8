// The WAV header (the project's one writer): for a file of known length, or for a stream, written
// before the length is known as streaming WAV writers do.
//
// Streaming choice: the RIFF chunk size and the data chunk size are both 0xFFFFFFFF (the largest value the
// 32-bit fields hold). Readers that follow the de-facto streaming convention (ffmpeg, sox, browsers'
// <audio>, Python's soundfile) read until the end of the stream; a reader that trusts the size
// reads until EOF too, since the stream never reaches 4 GiB. Writing 0 instead makes some
// readers see an empty file.

export const WAV_HEADER_BYTES = 44;
const UNKNOWN_LENGTH = 0xffffffff;

export interface WavFormat {
  sampleRate: number;
  /** 'pcm16': linear 16-bit (format tag 1); 'mulaw': G.711 mu-law 8-bit (format tag 7). */
  encoding: 'pcm16' | 'mulaw';
  channels?: number;
}

/** A 44-byte header for `dataBytes` of audio, or for a stream of unknown length when omitted. */
export function wavHeader(format: WavFormat, dataBytes?: number): Buffer {
  const channels = format.channels ?? 1;
  const bytesPerSample = format.encoding === 'pcm16' ? 2 : 1;
  if (!Number.isInteger(format.sampleRate) || format.sampleRate <= 0) {
    throw new RangeError(`bad sample rate: ${format.sampleRate}`);
  }
  if (
    dataBytes !== undefined &&
    (!Number.isInteger(dataBytes) || dataBytes < 0 || dataBytes % (channels * bytesPerSample) !== 0)
  ) {
    throw new RangeError(`audio data must be a whole number of samples, got ${dataBytes} bytes`);
  }
  const h = Buffer.alloc(WAV_HEADER_BYTES);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(dataBytes === undefined ? UNKNOWN_LENGTH : 36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(format.encoding === 'pcm16' ? 1 : 7, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(format.sampleRate, 24);
  h.writeUInt32LE(format.sampleRate * channels * bytesPerSample, 28);
  h.writeUInt16LE(channels * bytesPerSample, 32);
  h.writeUInt16LE(bytesPerSample * 8, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes ?? UNKNOWN_LENGTH, 40);
  return h;
}
