// History cut at what was heard: maps a caller's playback position (ms of the turn's audio played,
// from its first sample) to a place in the answer's text, and rebuilds the turn's messages from its
// transcript up to that place. Where the position falls in the sentences is the rule the page marks
// too (@kokoro-speech/protocol/heard-cut, documented in runtime/README.md); here:
// - fillers take time but map to no text;
// - the stored text is the LLM's own (not the speech form), up to that place; text written but not
//   heard is dropped; a tool the model called is kept with its result (it ran, or was cancelled),
//   so the history stays valid for the model, which also needs the turn to end with an assistant
//   message: an answer of which nothing was heard is stored as "…";
// - the rebuilt assistant messages carry metadata.custom.kokoro_speech = {interrupted: true, ...}.
import { Message, TextBlock, type ContentBlock } from '@strands-agents/sdk';
import type { SentenceTiming } from '../pipeline/types.ts';
import type { Transcript } from './transcript.ts';
import { heardCut } from '@kokoro-speech/protocol/heard-cut';

/** Stored for an answer of which the caller heard nothing. */
export const NOTHING_HEARD = '…';

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

/** Where the caller stopped hearing, in the answer's text (fillers hold none). */
export function heardPlace(sentences: readonly SentenceTiming[], playedMs: number): HeardPlace {
  const cut = heardCut(sentences, playedMs);
  let place: HeardPlace = { cycle: 0, offset: 0, all: cut.all };
  for (const s of sentences.slice(0, cut.whole))
    if (s.kind === 'answer') place = { cycle: s.cycle, offset: s.textEnd, all: cut.all };
  const playing = sentences[cut.whole];
  if (playing?.kind === 'answer' && cut.chars !== null)
    place = { cycle: playing.cycle, offset: playing.textStart + cut.chars, all: false };
  return place;
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
