// The sentences of one turn: their timings, and the TTS session's events turned into turn events
// (sentence when its audio starts, audio with a per-sentence seq, sentence_end), in audio order.
//
// After a broken stream the transport re-sends every utterance whose audio was incomplete, from
// its start (a `reconnected` event names them). The caller has already heard part of such a
// sentence, so the new rendition is spliced in where the old one broke off: its first bytes, as
// many as were already delivered, are dropped. Kokoro's duration prediction is deterministic, so
// both renditions have the same length and the caller gets every sample exactly once.
import type { TtsEvent } from '../tts/types.ts';
import type { PipelineEvent, SentenceTiming } from './types.ts';

interface Waiter {
  promise: Promise<void>;
  resolve(): void;
}

export class SentenceLedger {
  readonly #emit: (event: PipelineEvent) => void;
  readonly #now: () => number;
  readonly #sentences = new Map<string, SentenceTiming>();
  /** Resolved when a sentence's audio is complete (or failed, or the turn stopped). */
  readonly #done = new Map<string, Waiter>();
  /** Delivery state per sentence id: the sentence event sent, audio seq and bytes delivered, bytes to skip. */
  readonly #delivery = new Map<string, { started: boolean; seq: number; bytes: number; skip: number }>();
  firstSentenceMs: number | null = null;
  firstAudioMs: number | null = null;
  audioMs = 0;
  /** Sentences whose audio completed. */
  spoken = 0;

  constructor(emit: (event: PipelineEvent) => void, now: () => number) {
    this.#emit = emit;
    this.#now = now;
  }

  get list(): SentenceTiming[] {
    return [...this.#sentences.values()];
  }

  /** Registers the next sentence (ids s0, s1, ...); `audioDone` settles when its audio is complete. */
  add(text: string, spoken: string, readyMs: number): { timing: SentenceTiming; audioDone: Promise<void> } {
    const index = this.#sentences.size;
    const timing: SentenceTiming = { id: `s${index}`, index, text, spoken, readyMs };
    this.#sentences.set(timing.id, timing);
    this.firstSentenceMs ??= readyMs;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.#done.set(timing.id, { promise, resolve });
    this.#delivery.set(timing.id, { started: false, seq: 0, bytes: 0, skip: 0 });
    return { timing, audioDone: promise };
  }

  /** Nobody waits for audio any more (the turn stopped or the stream ended). */
  releaseAll(): void {
    for (const waiter of this.#done.values()) waiter.resolve();
  }

  /** Handles one TTS event; events of utterances that are not ours are ignored. */
  onTtsEvent(event: TtsEvent): void {
    if (event.type === 'reconnected') {
      for (const id of event.resent) {
        const d = this.#delivery.get(id);
        if (d) d.skip = d.bytes;
      }
      return;
    }
    if (event.type === 'error') {
      // One utterance failed (or a session-level complaint): report it, go on with the rest.
      const which = event.id ? ` (sentence ${this.#sentences.get(event.id)?.index ?? event.id})` : '';
      this.#emit({ type: 'error', code: `tts_${event.code}`, message: `${event.message}${which}` });
      if (event.id) this.#done.get(event.id)?.resolve();
      return;
    }
    const t = this.#sentences.get(event.id);
    const d = this.#delivery.get(event.id);
    if (!t || !d) return;
    switch (event.type) {
      case 'audio_start':
        if (d.started) return; // a resent sentence: the caller already has its sentence event
        d.started = true;
        this.#emit({ type: 'sentence', id: t.id, index: t.index, text: t.text, spoken: t.spoken, text_ms: t.readyMs });
        return;
      case 'audio': {
        let data = event.data;
        if (d.skip > 0) {
          const dropped = Math.min(d.skip, data.byteLength);
          d.skip -= dropped;
          data = data.subarray(dropped);
          if (data.byteLength === 0) return;
        }
        const now = this.#now();
        t.firstAudioMs ??= now;
        this.firstAudioMs ??= now;
        d.bytes += data.byteLength;
        this.#emit({ type: 'audio', id: t.id, seq: d.seq++, data });
        return;
      }
      case 'audio_end':
        Object.assign(t, {
          synthesisMs: event.synthesis_ms,
          queueMs: event.queue_ms,
          durationMs: event.duration_ms,
          samples: event.samples,
        });
        this.audioMs += event.duration_ms;
        this.spoken++;
        this.#emit({
          type: 'sentence_end',
          id: t.id,
          duration_ms: event.duration_ms,
          synthesis_ms: event.synthesis_ms,
        });
        this.#done.get(t.id)?.resolve();
        return;
    }
  }
}
