// WebVTT captions of a turn: one cue per sentence, from its first word's start to its last word's
// end, with each word's start as a WebVTT timestamp tag (karaoke-style captions, as players show them).
import type { TurnWord } from '@kokoro-speech/protocol';

export interface CaptionSentence {
  words: readonly TurnWord[];
  /** Added to this sentence's word times (an audio file whose timeline differs from the turn's). */
  offsetMs?: number;
}

/** HH:MM:SS.mmm */
export function vttTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(t % 1000, 3)}`;
}

/** Text in a cue must not contain "-->" or unescaped markup. */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function webVtt(sentences: readonly CaptionSentence[]): string {
  const cues: string[] = [];
  for (const s of sentences) {
    if (s.words.length === 0) continue;
    const at = (ms: number) => vttTime(ms + (s.offsetMs ?? 0));
    const text = s.words.map((w, i) => (i === 0 ? escape(w.text) : `<${at(w.start_ms)}>${escape(w.text)}`)).join(' ');
    cues.push(`${cues.length + 1}\n${at(s.words[0]!.start_ms)} --> ${at(s.words.at(-1)!.end_ms)}\n${text}`);
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
