// The encoder of one OpenAI-style response (POST /v1/audio/speech, /dev/captioned_speech): the
// utterance's 16-bit PCM in, the response_format's bytes out, with Kokoro-FastAPI's
// volume_multiplier applied first. G.711 is made from 8 kHz PCM (the stream resamples) sample by
// sample, the same bytes as the container's own mulaw/alaw formats (the float path rounds to 16
// bits first too). Undefined: the utterance's own bytes go out as they are (wav, pcm at volume 1).
import { linearToAlaw, linearToMulaw, WAV_HEADER_BYTES } from '../audio/index.ts';
import { createStreamEncoder, type StreamEncoder } from '../audio/stream-encoder.ts';

/** OpenAI's formats we make, its default first; aac has no maintained npm encoder (docs/design/openai-formats.md). */
export const OPENAI_AUDIO_FORMATS = ['mp3', 'opus', 'flac', 'wav', 'pcm'] as const;
/** Extensions for telephony (8 kHz G.711), as the container's own routes name them. */
export const G711_FORMATS = ['mulaw', 'alaw'] as const;
export type SpeechFormat = (typeof OPENAI_AUDIO_FORMATS)[number] | (typeof G711_FORMATS)[number];

export const isG711Format = (format: string): format is 'mulaw' | 'alaw' => format === 'mulaw' || format === 'alaw';

/** The rate the utterance is made at for a format: G.711 is 8 kHz by definition. */
export const formatRate = (format: SpeechFormat): 24000 | 8000 => (isG711Format(format) ? 8000 : 24000);

/** s16le scaled by `gain`, clipped to 16 bits (the same as scaling the float samples, then rounding). */
export function scalePcm(pcm: Uint8Array, gain: number): Buffer {
  const out = Buffer.allocUnsafe(pcm.byteLength & ~1);
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  for (let i = 0; i + 1 < pcm.byteLength; i += 2) {
    const v = Math.round(view.getInt16(i, true) * gain);
    out.writeInt16LE(v > 32767 ? 32767 : v < -32768 ? -32768 : v, i);
  }
  return out;
}

function g711Stream(format: 'mulaw' | 'alaw', gain: (pcm: Uint8Array) => Uint8Array): StreamEncoder {
  const code = format === 'mulaw' ? linearToMulaw : linearToAlaw;
  return {
    contentType: `audio/${format === 'mulaw' ? 'PCMU' : 'PCMA'};rate=8000;channels=1`,
    write(bytes) {
      const pcm = gain(bytes);
      const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      const out = Buffer.allocUnsafe(pcm.byteLength >> 1);
      for (let i = 0; i < out.length; i++) out[i] = code(view.getInt16(i * 2, true));
      return out;
    },
    end: () => Buffer.alloc(0),
    close: () => {},
  };
}

/** The volume alone, on wav (its streaming header passed through first) or pcm. */
function gainStream(format: 'wav' | 'pcm', gain: (pcm: Uint8Array) => Uint8Array): StreamEncoder {
  let header = format === 'wav' ? WAV_HEADER_BYTES : 0;
  return {
    contentType: format === 'wav' ? 'audio/wav' : 'audio/pcm',
    write(bytes) {
      const head = Buffer.from(bytes.subarray(0, header));
      const body = bytes.subarray(head.length);
      header -= head.length;
      return head.length > 0 ? Buffer.concat([head, gain(body)]) : Buffer.from(gain(body));
    },
    end: () => Buffer.alloc(0),
    close: () => {},
  };
}

export async function createSpeechEncoder(format: SpeechFormat, volume: number): Promise<StreamEncoder | undefined> {
  const gain = volume === 1 ? (pcm: Uint8Array) => pcm : (pcm: Uint8Array) => scalePcm(pcm, volume);
  if (isG711Format(format)) return g711Stream(format, gain);
  if (format === 'wav' || format === 'pcm') return volume === 1 ? undefined : gainStream(format, gain);
  const inner = await createStreamEncoder(format, 24000);
  if (volume === 1) return inner;
  return {
    contentType: inner.contentType,
    write: (pcm) => inner.write(gain(pcm)),
    end: () => inner.end(),
    close: () => inner.close(),
  };
}
