// History cut at what was heard: maps a caller's playback position (ms of the turn's audio played,
// from its first sample) to a place in the answer's text, and rebuilds the turn's messages from its
// transcript up to that place. The rule (documented in runtime/README.md):
// - sentences in audio order, each lasting its `duration_ms` (an incompletely delivered one: what
//   was delivered, or an estimate from the turn's speaking rate); fillers take time, map to no text;
// - every sentence that ends at or before the position was heard whole; in the one playing at the
//   position, the words that ended by then when the container timed them from the model's
//   durations, else (no word timings, or timings the container only estimated from token counts)
//   the same fraction of its characters, cut back to the last whole word;
// - the stored text is the LLM's own (not the speech form), up to that place; text written but not
//   heard is dropped; a tool the model called is kept with its result (it ran, or was cancelled),
//   so the history stays valid for the model, which also needs the turn to end with an assistant
//   message: an answer of which nothing was heard is stored as "…";
// - the rebuilt assistant messages carry metadata.custom.kokoro_speech = {interrupted: true, ...}.
import { Message, TextBlock, type ContentBlock } from '@strands-agents/sdk';
import type { SentenceTiming } from '../pipeline/types.ts';
import type { Transcript } from './transcript.ts';

/** Stored for an answer of which the caller heard nothing. */
export const NOTHING_HEARD = '…';
/** When no sentence of the turn completed: Kokoro's pace on real text is about this. */
const DEFAULT_MS_PER_CHAR = 60;

export interface HeardPlace {
  /** Text of cycles before `cycle` was heard whole; of `cycle`, up to `offset`. */
  cycle: number;
  offset: number;
  /** Every sentence that reached the caller was heard to its end. */
  all: boolean;
}

/** Milliseconds of audio delivered to the caller in this turn. */
export function deliveredMs(sentences: readonly SentenceTiming[]): number {
  return sentences.reduce((sum, s) => sum + s.deliveredMs, 0);
}

export function heardPlace(sentences: readonly SentenceTiming[], playedMs: number): HeardPlace {
  const complete = sentences.filter((s) => s.durationMs !== undefined && s.text.length > 0);
  const msPerChar =
    complete.length > 0
      ? complete.reduce((a, s) => a + s.durationMs!, 0) / complete.reduce((a, s) => a + s.text.length, 0)
      : DEFAULT_MS_PER_CHAR;
  let place: HeardPlace = { cycle: 0, offset: 0, all: true };
  let t = 0;
  for (const s of sentences) {
    if (s.durationMs === undefined && s.deliveredMs === 0) break; // nothing of it reached the caller
    const d = s.durationMs ?? Math.max(s.deliveredMs, s.text.length * msPerChar);
    if (playedMs >= t + d) {
      if (s.kind === 'answer') place = { cycle: s.cycle, offset: s.textEnd, all: true };
      t += d;
      continue;
    }
    place = { ...place, all: false };
    if (s.kind === 'answer' && playedMs > t) {
      place = { cycle: s.cycle, offset: s.textStart + partialChars(s, playedMs - t, d), all: false };
    }
    return place;
  }
  return place;
}

/** Characters of the sentence heard after `ms` of its audio (whole words only). */
function partialChars(s: SentenceTiming, ms: number, duration: number): number {
  if (s.words && s.words.length > 0 && !s.wordsEstimated)
    return s.words.filter((w) => w.endMs <= ms).at(-1)?.textEnd ?? 0;
  const chars = Math.floor((ms / duration) * s.text.length);
  if (chars >= s.text.length) return s.text.length;
  // Mid-word: back to the end of the last whole word.
  const head = /\s/.test(s.text[chars] ?? ' ') ? s.text.slice(0, chars) : s.text.slice(0, chars).replace(/\S*$/, '');
  return head.trimEnd().length;
}

export interface CutMeta {
  played_ms: number;
  /** Why: the caller cut it short, or the turn failed. */
  reason: 'interrupted' | 'failed';
}

/** The turn's messages after its prompt, rebuilt up to `place` (see the rule above). */
export function rebuildTurn(transcript: Transcript, place: HeardPlace, meta: CutMeta): Message[] {
  const custom = { kokoro_speech: { interrupted: true, reason: meta.reason, played_ms: Math.round(meta.played_ms) } };
  const messages: Message[] = [];
  transcript.cycles.forEach((cycle, k) => {
    const text = (k < place.cycle ? cycle.text : k === place.cycle ? cycle.text.slice(0, place.offset) : '').trim();
    const pairs = cycle.toolUses.filter((u) => cycle.results.has(u.toolUseId));
    const content: ContentBlock[] = [...(text ? [new TextBlock(text)] : []), ...pairs];
    if (content.length === 0) return;
    messages.push(new Message({ role: 'assistant', content, metadata: { custom } }));
    if (pairs.length > 0)
      messages.push(new Message({ role: 'user', content: pairs.map((u) => cycle.results.get(u.toolUseId)!) }));
  });
  if (messages.at(-1)?.role !== 'assistant')
    messages.push(new Message({ role: 'assistant', content: [new TextBlock(NOTHING_HEARD)], metadata: { custom } }));
  // Roles alternate (a cycle whose tool uses got no result leaves two assistant messages in a row).
  return messages.reduce<Message[]>((out, m) => {
    const last = out.at(-1);
    if (last?.role === m.role)
      out[out.length - 1] = new Message({
        role: m.role,
        content: [...last.content, ...m.content],
        metadata: { custom },
      });
    else out.push(m);
    return out;
  }, []);
}

/**
 * Replaces the turn's messages (those after its prompt, by id) in `history` with `messages`;
 * returns the ids now standing for the turn, or undefined when the turn is no longer in the
 * history (trimmed by the conversation window).
 */
export function replaceTurn(
  history: Message[],
  promptId: string | undefined,
  turnIds: readonly string[],
  messages: readonly Message[],
): string[] | undefined {
  const at = history.findIndex((m) => m.trackingId === promptId);
  if (at < 0) return undefined;
  const ids = new Set(turnIds);
  let end = at + 1;
  while (end < history.length && ids.has(history[end]!.trackingId)) end++;
  history.splice(at + 1, end - at - 1, ...messages);
  return messages.map((m) => m.trackingId);
}
