// A turn's audio as Opus (format "opus"): the turn runs on PCM s16le from the TTS session, and this
// stage, at the edge (the agent, not the GPU instance), re-encodes each sentence's audio into the
// turn contract's Opus records (20 ms frames, @kokoro-speech/protocol/audio) before it reaches the
// caller. Events other than audio pass through unchanged, so barge-in, the timeline and word
// times work as with PCM: a sentence decodes to exactly the samples of its PCM rendition.
import { OpusStreamEncoder, packOpusRecords, type OpusRate, type OpusRecord } from '@kokoro-speech/protocol/audio';
import type { PipelineEvent } from '../pipeline/types.ts';

export class OpusTurnOutput {
  readonly #emit: (event: PipelineEvent) => void;
  #encoder: OpusStreamEncoder | null = null;
  /** The sentence whose audio is being encoded, and the next seq of each sentence's Opus chunks. */
  #open: string | null = null;
  readonly #seq = new Map<string, number>();

  constructor(emit: (event: PipelineEvent) => void) {
    this.#emit = emit;
  }

  handle(event: PipelineEvent): void {
    switch (event.type) {
      case 'start': {
        this.#encoder = new OpusStreamEncoder(event.sample_rate as OpusRate);
        const { frameSamples, preSkip, bitrate } = this.#encoder.info;
        return this.#emit({
          ...event,
          format: 'opus',
          opus: { frame_samples: frameSamples, pre_skip: preSkip, bitrate },
        });
      }
      case 'sentence':
        // A sentence that failed without its end: finish its frames before the next one starts.
        if (this.#open !== null && this.#open !== event.id) this.#flush(this.#open);
        this.#open = event.id;
        return this.#emit(event);
      case 'audio':
        this.#open = event.id;
        this.#send(event.id, this.#encoder?.write(event.data) ?? []);
        return;
      case 'sentence_end':
        this.#flush(event.id);
        return this.#emit(event);
      case 'done':
        this.#encoder?.close();
        this.#encoder = null;
        return this.#emit(event);
      default:
        return this.#emit(event);
    }
  }

  #flush(id: string): void {
    this.#send(id, this.#encoder?.endSentence() ?? []);
    if (this.#open === id) this.#open = null;
  }

  #send(id: string, records: OpusRecord[]): void {
    if (records.length === 0) return;
    const seq = this.#seq.get(id) ?? 0;
    this.#seq.set(id, seq + 1);
    this.#emit({ type: 'audio', id, seq, data: packOpusRecords(records) });
  }
}
