// The sentences of one turn: their timings, and the TTS session's events turned into turn events
// (sentence when its audio starts, audio with a per-sentence seq, sentence_end), in audio order.
// The session delivers each utterance's audio exactly once, even across a reconnect (the TTS
// session core splices re-sent audio), so this ledger only counts and labels.
import type { TurnWord } from '@kokoro-speech/protocol';
import { normalizeForSpeech, sourceRange } from '../text/index.ts';
import type { TtsEvent, WordTiming } from '../tts/types.ts';
import type { PipelineEvent, SentenceTiming } from './types.ts';

export class SentenceLedger {
  readonly #emit: (event: PipelineEvent) => void;
  readonly #now: () => number;
  readonly #sentences = new Map<string, SentenceTiming>();
  /** Resolved when a sentence's audio is complete (or failed, or the turn stopped). */
  readonly #done = new Map<string, PromiseWithResolvers<void>>();
  /** The next audio seq of each sentence. */
  readonly #seq = new Map<string, number>();
  /** Whether the caller asked for `words` events (the timings are kept on the sentences either way). */
  readonly #sendWords: boolean;
  firstSentenceMs: number | null = null;
  firstAudioMs: number | null = null;
  audioMs = 0;
  /** Sentences whose audio completed. */
  spoken = 0;
  /** The TTS session's rate: word times are put on the turn's audio clock with it. */
  sampleRate = 0;
  /** Samples of the sentences whose audio completed: where the current sentence starts on that clock. */
  #samplesBefore = 0;

  constructor(emit: (event: PipelineEvent) => void, now: () => number, options: { words?: boolean } = {}) {
    this.#emit = emit;
    this.#now = now;
    this.#sendWords = options.words === true;
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
    const done = Promise.withResolvers<void>();
    this.#done.set(timing.id, done);
    this.#seq.set(timing.id, 0);
    return { timing, audioDone: done.promise };
  }

  /** Nobody waits for audio any more (the turn stopped or the stream ended). */
  releaseAll(): void {
    for (const waiter of this.#done.values()) waiter.resolve();
  }

  #toCaller(t: SentenceTiming, words: readonly WordTiming[]): TurnWord[] {
    const startMs = this.sampleRate > 0 ? (this.#samplesBefore / this.sampleRate) * 1000 : this.audioMs;
    return callerWords(t, words, startMs);
  }

  /** Handles one TTS event; events of utterances that are not ours are ignored. */
  onTtsEvent(event: TtsEvent): void {
    if (event.type === 'reconnected') return; // nothing to do: the session splices
    if (event.type === 'error') {
      // One utterance failed (or a session-level complaint): report it, go on with the rest.
      const which = event.id ? ` (sentence ${this.#sentences.get(event.id)?.index ?? event.id})` : '';
      this.#emit({ type: 'error', code: `tts_${event.code}`, message: `${event.message}${which}` });
      if (event.id) this.#done.get(event.id)?.resolve();
      return;
    }
    const t = this.#sentences.get(event.id);
    const seq = this.#seq.get(event.id);
    if (!t || seq === undefined) return;
    switch (event.type) {
      case 'audio_start':
        this.#emit({ type: 'sentence', id: t.id, index: t.index, text: t.text, spoken: t.spoken, text_ms: t.readyMs });
        return;
      case 'audio': {
        const now = this.#now();
        t.firstAudioMs ??= now;
        this.firstAudioMs ??= now;
        this.#seq.set(t.id, seq + 1);
        this.#emit({ type: 'audio', id: t.id, seq, data: event.data });
        return;
      }
      case 'words': {
        const words = this.#toCaller(t, event.words);
        (t.words ??= []).push(...words);
        if (this.#sendWords && words.length > 0)
          this.#emit({ type: 'words', id: t.id, words, estimated: event.estimated });
        return;
      }
      case 'audio_end':
        this.#samplesBefore += event.samples;
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

/**
 * Container word times (offsets into the spoken text, ms from the utterance's start) as the caller
 * sees them: offsets into the sentence as shown, through the normaliser's map; ms from the turn's
 * first sample. Words the normaliser made out of one source span ("$5" spoken as "five dollars")
 * become that one span, from the first one's start to the last one's end.
 */
function callerWords(t: SentenceTiming, words: readonly WordTiming[], startMs: number): TurnWord[] {
  const n = normalizeForSpeech(t.text);
  const lead = n.spoken.length - n.spoken.trimStart().length; // the agent sends spoken.trim()
  const out: TurnWord[] = [];
  for (const w of words) {
    const { start, end } = sourceRange(t.text, n, w.start + lead, w.end + lead);
    if (end <= start) continue; // nothing of the shown text (should not happen: spoken words come from it)
    const at = (ms: number) => Math.round((startMs + ms) * 100) / 100;
    const last = out.at(-1);
    if (last && start < last.end) {
      last.end = Math.max(last.end, end);
      last.text = t.text.slice(last.start, last.end);
      last.end_ms = at(w.end_ms);
      continue;
    }
    out.push({ text: t.text.slice(start, end), start, end, start_ms: at(w.start_ms), end_ms: at(w.end_ms) });
  }
  return out;
}
