// WAV files made in tests, in the encodings `say --audio` reads (wav-input.ts): integer PCM of
// 8-32 bits or 32-bit float, any rate, any channel count, optionally with an extra chunk before
// `fmt ` (as some editors write) or as WAVE_FORMAT_EXTENSIBLE.
export interface TestWavFormat {
  rate: number;
  channels: number;
  bits: 8 | 16 | 24 | 32;
  float?: boolean;
  extensible?: boolean;
  /** A LIST chunk first, so the reader must look for `fmt ` rather than assume its place. */
  leadingChunk?: boolean;
}

/** `frames[i][c]` in [-1, 1]: frame i, channel c. */
export function testWav(format: TestWavFormat, frames: readonly (readonly number[])[]): Buffer {
  const { rate, channels, bits } = format;
  const width = bits / 8;
  const data = Buffer.alloc(frames.length * channels * width);
  frames.forEach((frame, i) => {
    for (let c = 0; c < channels; c++) {
      const x = Math.max(-1, Math.min(1, frame[c] ?? 0));
      const at = (i * channels + c) * width;
      if (format.float) data.writeFloatLE(x, at);
      else if (bits === 8) data[at] = Math.round(x * 127) + 128;
      else data.writeIntLE(Math.round(x * (2 ** (bits - 1) - 1)), at, width);
    }
  });
  const code = format.float ? 3 : 1;
  const fmt = Buffer.alloc(format.extensible ? 40 : 16);
  fmt.writeUInt16LE(format.extensible ? 0xfffe : code, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * channels * width, 8);
  fmt.writeUInt16LE(channels * width, 12);
  fmt.writeUInt16LE(bits, 14);
  if (format.extensible) {
    fmt.writeUInt16LE(22, 16);
    fmt.writeUInt16LE(bits, 18);
    fmt.writeUInt16LE(code, 24); // the sub-format GUID's first two bytes
  }
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE', 'ascii'),
    ...(format.leadingChunk ? [chunk('LIST', Buffer.from('INFOISFT\x05\x00\x00\x00test\x00', 'latin1'))] : []),
    chunk('fmt ', fmt),
    chunk('data', data),
  ]);
  return Buffer.concat([chunk('RIFF', body).subarray(0, 8), body]);
}
