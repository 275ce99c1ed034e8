// Opus for the turn contract: PCM s16le sentences in, framed Opus records out (opus-framing.js),
// 20 ms frames. One encoder per turn keeps the codec's state across sentences; each sentence ends
// with its last frame padded (and, when the padding is shorter than the encoder's lookahead, one
// more), so its audio is complete when its sentence_end is sent, and the records say which decoded
// samples to drop so the sentence plays exactly its PCM samples.
// libopus through opusscript (emscripten/WebAssembly, MIT): it installs from the npm registry with
// no download or native build, so it runs unchanged on the agent's arm64 image (see runtime/README.md).
import OpusScript from 'opusscript';
import type { OpusRecord } from './opus-framing.js';

export const OPUS_FRAME_MS = 20;
/** Speech at 24 kHz mono: ~3 kB/s, WebRTC's usual range for voice. */
export const OPUS_BITRATE = 24_000;
export type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

/**
 * The decoder's output lags its input by the encoder's lookahead: libopus adds 2.5 ms plus 4 ms of
 * delay compensation (outside restricted-low-delay mode), i.e. rate / 400 + rate / 250 samples.
 * Checked against the encoder itself in opus-encoder.test.ts.
 */
export const opusLookahead = (rate: number): number => rate / 400 + rate / 250;

export interface OpusStreamInfo {
  sampleRate: OpusRate;
  frameSamples: number;
  /** Samples the decoder emits before the first input sample (the first record's skip). */
  preSkip: number;
  bitrate: number;
}

export class OpusStreamEncoder {
  readonly info: OpusStreamInfo;
  readonly #opus: OpusScript;
  /** Samples not yet encoded (less than a frame), Int16. */
  #pending: Int16Array;
  #pendingLength = 0;
  /** An odd trailing byte of the last chunk (PCM chunks need not end on a sample). */
  #odd: number | null = null;
  /** Encoder input so far, in samples (padding included); the current sentence starts at #sentenceStart. */
  #input = 0;
  #sentenceStart = 0;
  /** Real samples of the current sentence so far. */
  #sentenceSamples = 0;
  #closed = false;

  constructor(sampleRate: OpusRate, bitrate = OPUS_BITRATE) {
    this.#opus = new OpusScript(sampleRate, 1, OpusScript.Application.VOIP);
    this.#opus.setBitrate(bitrate);
    const frameSamples = (sampleRate * OPUS_FRAME_MS) / 1000;
    this.info = { sampleRate, frameSamples, preSkip: opusLookahead(sampleRate), bitrate };
    this.#pending = new Int16Array(frameSamples);
  }

  /** PCM s16le bytes of the current sentence; returns the records of the frames now complete. */
  write(bytes: Uint8Array): OpusRecord[] {
    return [...this.frames(bytes)];
  }

  /** write(), one record at a time as each frame is encoded (so the first can be sent at once). */
  *frames(bytes: Uint8Array): Generator<OpusRecord> {
    this.#check();
    let data = bytes;
    if (this.#odd !== null) {
      data = new Uint8Array(bytes.byteLength + 1);
      data[0] = this.#odd;
      data.set(bytes, 1);
      this.#odd = null;
    }
    if (data.byteLength % 2 === 1) {
      this.#odd = data[data.byteLength - 1]!;
      data = data.subarray(0, data.byteLength - 1);
    }
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < data.byteLength; i += 2) {
      this.#pending[this.#pendingLength++] = view.getInt16(i, true);
      this.#sentenceSamples++;
      if (this.#pendingLength === this.info.frameSamples) yield this.#encodeFrame();
    }
  }

  /** The sentence is complete: pads its last frame (and one more if need be) and starts the next. */
  endSentence(): OpusRecord[] {
    this.#check();
    this.#odd = null; // a sentence never ends mid-sample; a stray byte is dropped
    const records: OpusRecord[] = [];
    if (this.#sentenceSamples === 0 && this.#pendingLength === 0) return records;
    const end = this.#sentenceStart + this.#sentenceSamples + this.info.preSkip;
    while (this.#input + this.#pendingLength < end || this.#pendingLength > 0) {
      this.#pending.fill(0, this.#pendingLength);
      this.#pendingLength = this.info.frameSamples;
      records.push(this.#encodeFrame());
    }
    this.#sentenceStart = this.#input;
    this.#sentenceSamples = 0;
    return records;
  }

  /** Frees the codec (WebAssembly memory). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#opus.delete();
  }

  #check(): void {
    if (this.#closed) throw new Error('the Opus encoder is closed');
  }

  #encodeFrame(): OpusRecord {
    const { frameSamples, preSkip } = this.info;
    const pcm = new Uint8Array(this.#pending.buffer, 0, frameSamples * 2);
    const packet = new Uint8Array(this.#opus.encode(Buffer.from(pcm), frameSamples));
    // This packet decodes to the input samples [from, from + frame); the sentence's real ones are
    // [sentenceStart, sentenceStart + sentenceSamples) (its total is known only at its end, but the
    // real samples seen so far bound it: padding comes after them).
    const from = this.#input - preSkip;
    const realStart = this.#sentenceStart;
    const realEnd = this.#sentenceStart + this.#sentenceSamples;
    const lo = Math.max(from, realStart);
    const hi = Math.min(from + frameSamples, realEnd);
    this.#input += frameSamples;
    this.#pendingLength = 0;
    return hi > lo ? { packet, skip: lo - from, keep: hi - lo } : { packet, skip: frameSamples, keep: 0 };
  }
}
