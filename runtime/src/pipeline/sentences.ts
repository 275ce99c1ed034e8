// The sentences of one turn: their timings, and the TTS session's events turned into turn events
// (sentence when its audio starts, audio with a per-sentence seq, sentence_end), in audio order.
// The session delivers each utterance's audio exactly once, even across a reconnect (the TTS
// session core splices re-sent audio), so this ledger only counts and labels; it also estimates
// when the caller's playback of what was delivered ends (for the tool filler), and keeps each
// sentence's word timings (for `words` events and for the history cut).
import type { AudioFormat, TurnWord } from '@kokoro-speech/protocol';
import { normalizeForSpeech, sourceRange, type Language } from '../text/index.ts';
import { shownText } from '../text/inline-display.ts';
import type { TtsEvent, WordTiming as SpokenWord } from '../tts/types.ts';
import type { PipelineEvent, SentenceTiming, WordTiming } from './types.ts';

/** Where a sentence is in the answer's text (see SentenceTiming). */
export type SentencePlace = Pick<SentenceTiming, 'kind' | 'cycle' | 'textStart' | 'textEnd'>;

/** Duration of `bytes` of encoded audio (a wav stream starts with its 44-byte header). */
export function audioMsOf(bytes: number, format: AudioFormat, sampleRate: number): number {
  if (format === 'mulaw' || format === 'alaw') return (bytes / 8000) * 1000;
  const pcm = format === 'wav' ? Math.max(0, bytes - 44) : bytes;
  return (pcm / 2 / sampleRate) * 1000;
}

export class SentenceLedger {
  readonly #emit: (event: PipelineEvent) => void;
  readonly #now: () => number;
  readonly #sentences = new Map<string, SentenceTiming>();
  /** Resolved when a sentence's audio is complete (or failed, or the turn stopped). */
  readonly #done = new Map<string, PromiseWithResolvers<void>>();
  /** The next audio seq of each sentence. */
  readonly #seq = new Map<string, number>();
  /** Sentences whose audio is still to come (sent to TTS, not ended or failed). */
  readonly #pending = new Set<string>();
  #format: AudioFormat = 'pcm_s16le';
  #sampleRate = 24000;
  /** Whether the caller asked for `words` events (the timings are kept on the sentences either way). */
  readonly #sendWords: boolean;
  firstSentenceMs: number | null = null;
  firstAudioMs: number | null = null;
  /** performance.now() of the first audio chunk delivered. */
  firstAudioAt: number | null = null;
  audioMs = 0;
  /** Sentences whose audio completed. */
  spoken = 0;
  /** The TTS session's rate: word times are put on the turn's audio clock with it. */
  sampleRate = 0;
  /** Samples of the sentences whose audio completed: where the current sentence starts on that clock. */
  #samplesBefore = 0;

  /** The turn's language: its normaliser made the spoken text that word offsets point into. */
  language: Language = 'en';

  constructor(emit: (event: PipelineEvent) => void, now: () => number, options: { words?: boolean } = {}) {
    this.#emit = emit;
    this.#now = now;
    this.#sendWords = options.words === true;
  }

  /** The format and rate of the audio delivered (for durations of partly delivered sentences). */
  setAudio(format: AudioFormat, sampleRate: number): void {
    this.#format = format;
    this.#sampleRate = sampleRate;
  }

  get list(): SentenceTiming[] {
    return [...this.#sentences.values()];
  }

  /** Registers the next sentence (ids s0, s1, ...); `audioDone` settles when its audio is complete. */
  add(
    text: string,
    spoken: string,
    readyMs: number,
    place: SentencePlace = { kind: 'answer', cycle: 0, textStart: 0, textEnd: text.length },
  ): { timing: SentenceTiming; audioDone: Promise<void> } {
    const index = this.#sentences.size;
    const timing: SentenceTiming = {
      id: `s${index}`,
      index,
      text,
      spoken,
      readyMs,
      ...place,
      deliveredBytes: 0,
      deliveredMs: 0,
    };
    this.#sentences.set(timing.id, timing);
    this.firstSentenceMs ??= readyMs;
    const done = Promise.withResolvers<void>();
    this.#done.set(timing.id, done);
    this.#seq.set(timing.id, 0);
    this.#pending.add(timing.id);
    return { timing, audioDone: done.promise };
  }

  /** Nobody waits for audio any more (the turn stopped or the stream ended). */
  releaseAll(): void {
    for (const waiter of this.#done.values()) waiter.resolve();
    this.#pending.clear();
  }

  /** Whether some sentence's audio is still to come. */
  get audioPending(): boolean {
    return this.#pending.size > 0;
  }

  /**
   * When the caller's playback of the audio delivered so far ends (performance.now() time), for a
   * player that starts each sentence once its audio arrives and the previous one has ended; null
   * before any audio.
   */
  playbackEnd(): number | null {
    let end: number | null = null;
    for (const t of this.#sentences.values()) {
      if (t.firstAudioAt === undefined) continue;
      const start = Math.max(end ?? t.firstAudioAt, t.firstAudioAt);
      end = start + (t.durationMs ?? t.deliveredMs);
    }
    return end;
  }

  #settle(id: string): void {
    this.#pending.delete(id);
    this.#done.get(id)?.resolve();
  }

  /** Where the sentence being played starts on the turn's audio clock (sentences back to back). */
  get #sentenceStartMs(): number {
    return this.sampleRate > 0 ? (this.#samplesBefore / this.sampleRate) * 1000 : this.audioMs;
  }

  /** Handles one TTS event; events of utterances that are not ours are ignored. */
  onTtsEvent(event: TtsEvent): void {
    if (event.type === 'reconnected') return; // nothing to do: the session splices
    if (event.type === 'error') {
      // One utterance failed (or a session-level complaint): report it, go on with the rest.
      const which = event.id ? ` (sentence ${this.#sentences.get(event.id)?.index ?? event.id})` : '';
      this.#emit({ type: 'error', code: `tts_${event.code}`, message: `${event.message}${which}` });
      if (event.id) this.#settle(event.id);
      return;
    }
    const t = this.#sentences.get(event.id);
    const seq = this.#seq.get(event.id);
    if (!t || seq === undefined) return;
    switch (event.type) {
      case 'audio_start':
        this.#emit({
          type: 'sentence',
          id: t.id,
          index: t.index,
          text: shownText(t.text).text,
          spoken: t.spoken,
          text_ms: t.readyMs,
          ...(t.kind === 'filler' ? { filler: true as const } : {}),
        });
        return;
      case 'audio': {
        const now = this.#now();
        t.firstAudioMs ??= now;
        t.firstAudioAt ??= performance.now();
        this.firstAudioMs ??= now;
        this.firstAudioAt ??= t.firstAudioAt;
        t.deliveredBytes += event.data.byteLength;
        t.deliveredMs = audioMsOf(t.deliveredBytes, this.#format, this.#sampleRate);
        this.#seq.set(t.id, seq + 1);
        this.#emit({ type: 'audio', id: t.id, seq, data: event.data });
        return;
      }
      case 'words': {
        const words = shownWords(t, event.words, this.language);
        (t.words ??= []).push(...words);
        if (event.estimated) t.wordsEstimated = true;
        if (this.#sendWords && words.length > 0)
          this.#emit({
            type: 'words',
            id: t.id,
            words: onTurnClock(t, words, this.#sentenceStartMs),
            estimated: event.estimated,
          });
        return;
      }
      case 'audio_end':
        this.#samplesBefore += event.samples;
        Object.assign(t, {
          synthesisMs: event.synthesis_ms,
          queueMs: event.queue_ms,
          durationMs: event.duration_ms,
          samples: event.samples,
          deliveredMs: event.duration_ms,
        });
        this.audioMs += event.duration_ms;
        this.spoken++;
        this.#emit({
          type: 'sentence_end',
          id: t.id,
          duration_ms: event.duration_ms,
          synthesis_ms: event.synthesis_ms,
        });
        this.#settle(t.id);
        return;
    }
  }
}

/**
 * Container word times (offsets into the spoken text, ms from the utterance's start) as the caller
 * sees them: offsets into the sentence as shown, through the normaliser's map (ms still from the
 * sentence's first sample). Words the normaliser made out of one source span ("$5" spoken as "five
 * dollars") become that one span, from the first one's start to the last one's end.
 */
function shownWords(t: SentenceTiming, words: readonly SpokenWord[], language: Language): WordTiming[] {
  const n = normalizeForSpeech(t.text, { language });
  const lead = n.spoken.length - n.spoken.trimStart().length; // the agent sends spoken.trim()
  const out: WordTiming[] = [];
  for (const w of words) {
    const { start, end } = sourceRange(t.text, n, w.start + lead, w.end + lead);
    if (end <= start) continue; // nothing of the shown text (should not happen: spoken words come from it)
    const last = out.at(-1);
    if (last && start < last.textEnd) {
      last.textEnd = Math.max(last.textEnd, end);
      last.endMs = w.end_ms;
      continue;
    }
    out.push({ textStart: start, textEnd: end, startMs: w.start_ms, endMs: w.end_ms });
  }
  return out;
}

/**
 * Words of a sentence for a `words` event: its text, times on the turn's audio clock (from
 * `startMs`), offsets into the sentence as shown (inline pronunciations as just their word).
 */
function onTurnClock(t: SentenceTiming, words: readonly WordTiming[], startMs: number): TurnWord[] {
  const at = (ms: number) => Math.round((startMs + ms) * 100) / 100;
  const shown = shownText(t.text);
  return words.map((w) => ({
    text: shown.text.slice(shown.at(w.textStart), shown.at(w.textEnd)),
    start: shown.at(w.textStart),
    end: shown.at(w.textEnd),
    start_ms: at(w.startMs),
    end_ms: at(w.endMs),
  }));
}
