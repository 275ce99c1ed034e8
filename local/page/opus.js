// Opus in the page: WebCodecs' AudioDecoder decodes the turn contract's Opus records (framing in
// /vendor/kokoro-speech/opus-framing.js) into PCM s16le chunks for the same pcm-player worklet,
// keeping only the samples each record says to play, so a sentence plays exactly the samples of
// its PCM rendition. Chromium decodes Opus at 48 kHz whatever the stream's rate; the output is
// taken at the stream's rate (every 2nd sample at 24 kHz): Opus codes at most half the input rate
// of bandwidth, so nothing above the new Nyquist frequency is there to alias.
import { unpackOpusRecords } from '/vendor/kokoro-speech/opus-framing.js';

const FRAME_US = 20_000;

/** Whether this browser can decode Opus at this rate (false where WebCodecs is missing). */
export async function opusSupported(sampleRate) {
  if (typeof AudioDecoder === 'undefined' || typeof EncodedAudioChunk === 'undefined') return false;
  try {
    const { supported } = await AudioDecoder.isConfigSupported({ codec: 'opus', sampleRate, numberOfChannels: 1 });
    return supported === true;
  } catch {
    return false;
  }
}

/** Decodes one turn's Opus audio; `onPcm(id, seq, pcm)` gets each sentence's chunks, in order. */
export class OpusTurnDecoder {
  constructor(sampleRate, onPcm, onError) {
    this.sampleRate = sampleRate;
    this.onPcm = onPcm;
    // What each packet is, in decode order: outputs come in that order (Chromium recomputes their
    // timestamps from sample counts, so they cannot be matched by timestamp).
    this.pending = [];
    this.seqs = new Map();
    this.timestamp = 0;
    this.decoder = new AudioDecoder({
      output: (data) => this.output(data),
      error: (err) => onError(err),
    });
    this.decoder.configure({ codec: 'opus', sampleRate, numberOfChannels: 1 });
  }

  /** One audio chunk of sentence `id` (one or more records). */
  push(id, bytes) {
    for (const { packet, skip, keep } of unpackOpusRecords(bytes)) {
      const timestamp = this.timestamp;
      this.timestamp += FRAME_US;
      this.pending.push({ id, skip, keep });
      this.decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp, data: packet }));
    }
  }

  /** Resolves once everything pushed has been decoded and handed on. */
  flush() {
    return this.decoder.state === 'configured' ? this.decoder.flush() : Promise.resolve();
  }

  close() {
    if (this.decoder.state !== 'closed') this.decoder.close();
  }

  output(data) {
    const record = this.pending.shift();
    const all = new Float32Array(data.numberOfFrames);
    data.copyTo(all, { planeIndex: 0, format: 'f32-planar' });
    const step = Math.max(1, Math.round(data.sampleRate / this.sampleRate));
    data.close();
    if (!record || record.keep === 0) return;
    const pcm = new Int16Array(record.keep);
    for (let i = 0; i < record.keep; i++) {
      const v = all[(record.skip + i) * step] ?? 0;
      pcm[i] = Math.max(-32768, Math.min(32767, Math.round(v * 32767)));
    }
    const seq = this.seqs.get(record.id) ?? 0;
    this.seqs.set(record.id, seq + 1);
    this.onPcm(record.id, seq, pcm.buffer);
  }
}
