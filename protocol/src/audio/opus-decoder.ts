// Decodes the turn contract's Opus records back to PCM s16le (the say CLI and the tests; the page
// uses WebCodecs' AudioDecoder instead), applying each record's skip and keep.
import OpusScript from 'opusscript';
import type { OpusRecord } from './opus-framing.js';
import type { OpusRate } from './opus-encoder.ts';

export class OpusScriptDecoder {
  readonly #opus: OpusScript;

  constructor(sampleRate: OpusRate) {
    this.#opus = new OpusScript(sampleRate, 1, OpusScript.Application.VOIP);
  }

  /** The samples the records say to play, as PCM s16le bytes. */
  decode(records: readonly OpusRecord[]): Buffer {
    const parts: Buffer[] = [];
    for (const { packet, skip, keep } of records) {
      const pcm = this.#opus.decode(Buffer.from(packet));
      parts.push(pcm.subarray(skip * 2, (skip + keep) * 2));
    }
    return Buffer.concat(parts);
  }

  /** Every decoded sample, skip and keep ignored (to check the framing itself). */
  decodeAll(packet: Uint8Array): Buffer {
    return this.#opus.decode(Buffer.from(packet));
  }

  close(): void {
    this.#opus.delete();
  }
}
