// A turn's audio as Opus (format "opus"): the turn runs on PCM s16le from the TTS session, and this
// stage, at the edge (the agent, not the GPU instance), re-encodes each sentence's audio into the
// turn contract's Opus records (20 ms frames, @kokoro-speech/protocol/audio) before it reaches the
// caller. Other events pass through unchanged and in order, so barge-in, the timeline and word
// times work as with PCM: a sentence decodes to exactly the samples of its PCM rendition.
//
// A PCM chunk is a whole model run (seconds of audio, ~10 ms of encoding per second of it), so
// encoding is done a batch of frames at a time with the event loop free in between (other turns and
// sockets are not held up), and a sentence's first frame is sent as soon as it is encoded: Opus adds
// at most a frame to the time to first audio. A cancelled turn drops the audio still to encode.
// The PCM waiting to be encoded is counted (`backlogBytes`): the turn stops pulling audio from
// the TTS session while it is large, so a long answer never piles up here.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { OpusStreamEncoder, packOpusRecords, type OpusRate, type OpusRecord } from '@kokoro-speech/protocol/audio';
import type { PipelineEvent } from '../pipeline/types.ts';

/**
 * Records per audio event of a sentence: the first frame alone, then a few (enough, with it, to fill
 * the page's 50 ms jitter buffer without waiting on a big batch to encode and decode), then 25
 * (half a second: fewer events, less SSE framing).
 */
const BATCHES = [1, 3];
const BATCH = 25;

export class OpusTurnOutput {
  readonly #emit: (event: PipelineEvent) => void;
  #encoder: OpusStreamEncoder | null = null;
  /** The sentence whose audio is being encoded, and the next seq of each sentence's Opus chunks. */
  #open: string | null = null;
  readonly #seq = new Map<string, number>();
  readonly #queue: PipelineEvent[] = [];
  #pumping: Promise<void> | null = null;
  #dropAudio = false;
  #backlog = 0;
  #waiters: { below: number; resolve: () => void }[] = [];

  constructor(emit: (event: PipelineEvent) => void) {
    this.#emit = emit;
  }

  handle(event: PipelineEvent): void {
    if (event.type === 'done' && event.cancelled) {
      // Barge-in: nothing more of this turn is wanted; what is still to encode is dropped.
      this.#dropAudio = true;
      for (let i = this.#queue.length - 1; i >= 0; i--) if (this.#queue[i]!.type === 'audio') this.#queue.splice(i, 1);
      this.#backlog = 0;
    }
    if (event.type === 'audio') this.#backlog += event.data.byteLength;
    this.#queue.push(event);
    this.#pumping ??= this.#pump();
  }

  /** PCM bytes handed in and not yet encoded. */
  get backlogBytes(): number {
    return this.#backlog;
  }

  /** Resolves once the backlog is at most `bytes`. */
  drained(bytes: number): Promise<void> {
    if (this.#backlog <= bytes) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiters.push({ below: bytes, resolve });
    return promise;
  }

  /** Resolves once every event handed in has been passed on (the turn ends after this). */
  async idle(): Promise<void> {
    while (this.#pumping) await this.#pumping;
  }

  async #pump(): Promise<void> {
    try {
      for (let event = this.#queue.shift(); event; event = this.#queue.shift()) {
        await this.#process(event);
        if (event.type === 'audio') this.#backlog = Math.max(0, this.#backlog - event.data.byteLength);
        this.#wake();
      }
    } finally {
      this.#pumping = null;
      this.#backlog = 0;
      this.#wake();
    }
  }

  #wake(): void {
    this.#waiters = this.#waiters.filter((w) => (this.#backlog <= w.below ? (w.resolve(), false) : true));
  }

  async #process(event: PipelineEvent): Promise<void> {
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
      case 'audio': {
        this.#open = event.id;
        let batch: OpusRecord[] = [];
        for (const record of this.#encoder?.frames(event.data) ?? []) {
          batch.push(record);
          if (batch.length < (BATCHES[this.#seq.get(event.id) ?? 0] ?? BATCH)) continue;
          this.#send(event.id, batch);
          batch = [];
          await yieldToLoop();
          if (this.#dropAudio) return;
        }
        return this.#send(event.id, batch);
      }
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
    if (!this.#dropAudio) this.#send(id, this.#encoder?.endSentence() ?? []);
    if (this.#open === id) this.#open = null;
  }

  #send(id: string, records: OpusRecord[]): void {
    if (records.length === 0 || this.#dropAudio) return;
    const seq = this.#seq.get(id) ?? 0;
    this.#seq.set(id, seq + 1);
    this.#emit({ type: 'audio', id, seq, data: packOpusRecords(records) });
  }
}
