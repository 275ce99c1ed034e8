// Compressed formats of the OpenAI route, encoded as the audio is made: 16-bit PCM pieces in,
// the encoded bytes they complete out (an encoder may hold a few ms until a frame is full), the
// rest at the end. Why these encoders: docs/design/openai-formats.md.
import { OggOpusWriter, OpusStreamEncoder, type OpusRate } from '@kokoro-speech/protocol/audio';
import { createFlacStream } from './flac-stream.ts';
import { createMp3Stream } from './mp3-stream.ts';

export interface StreamEncoder {
  readonly contentType: string;
  /** The bytes that `pcm` (s16le mono) completes; empty while the encoder fills a frame. */
  write(pcm: Uint8Array): Buffer;
  /** The last frames and any trailer, once the input is over. */
  end(): Buffer;
  /** Frees the encoder (after end, or when the response is abandoned); idempotent. */
  close(): void;
}

export const COMPRESSED_FORMATS = ['mp3', 'opus', 'flac'] as const;
export type CompressedFormat = (typeof COMPRESSED_FORMATS)[number];

export function createStreamEncoder(format: CompressedFormat, sampleRate: OpusRate): Promise<StreamEncoder> {
  if (format === 'mp3') return createMp3Stream(sampleRate);
  if (format === 'flac') return createFlacStream(sampleRate);
  return Promise.resolve(oggOpusStream(sampleRate));
}

/** Opus in Ogg (RFC 7845), from the protocol package's encoder and page writer. */
function oggOpusStream(sampleRate: OpusRate): StreamEncoder {
  const encoder = new OpusStreamEncoder(sampleRate);
  const ogg = new OggOpusWriter(sampleRate, encoder.info.preSkip, encoder.info.frameSamples);
  let samples = 0;
  return {
    contentType: 'audio/ogg; codecs=opus',
    write(pcm) {
      samples += pcm.length / 2;
      for (const r of encoder.write(pcm)) ogg.add(r.packet);
      return ogg.drain();
    },
    end() {
      for (const r of encoder.endSentence()) ogg.add(r.packet);
      return ogg.finish(samples);
    },
    close: () => encoder.close(),
  };
}

/** s16le bytes as float samples in [-1, 1). */
export function s16leToFloat(pcm: Uint8Array): Float32Array {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const out = new Float32Array(pcm.byteLength >> 1);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
  return out;
}
