// Markdown and typography an LLM writes, read as a person reads it: code spans, links and images
// by their text, HTML tags and emphasis dropped, curly quotes as straight ones, emoji skipped.
import type { Rule } from '../rules.ts';

const LINK_TARGET = '\\([^()\\s]{0,2000}(?:\\s{1,8}"[^"\\n]{0,200}")?\\)';
/** A link's or image's text: longer brackets are read as text (bounded, so a line of "[" is linear). */
const LABEL_MAX = 200;

/**
 * misaki's inline pronunciation, `[Kokoro](/kˈOkəɹO/)`: group 1 is the word shown. Bounded (a word
 * of at most 100 characters, phonemes of at most 200), so that a stream can tell within a bounded
 * look-ahead whether a "[" opens one (inline-display.ts) and a line of "[" costs linear time.
 */
export const INLINE_WORD_MAX = 100;
export const INLINE_PHONEMES_MAX = 200;
export const INLINE_PRONUNCIATION = `\\[([^\\]\\n]{1,${INLINE_WORD_MAX}})\\]\\(/[^()\\n]{1,${INLINE_PHONEMES_MAX}}/\\)`;

/** Spans that carry markup around text: only the text inside is spoken. */
export const MARKUP_SPANS: Rule[] = [
  // misaki's inline pronunciation, [Kokoro](/kˈOkəɹO/): passed on intact for the container to read
  // (container/README.md, Pronunciation), the word mapping to itself for captions.
  { name: 'markup', re: INLINE_PRONUNCIATION, keep: 1 },
  { name: 'markup', re: '`{1,3}([^`\\n]+?)`{1,3}', inner: 1, maxInner: 40 }, // inline code: short code is read, long is dropped
  { name: 'markup', re: `!\\[([^\\]\\n]{0,${LABEL_MAX}})\\]${LINK_TARGET}`, inner: 1 }, // image: its alt text
  { name: 'markup', re: `\\[([^\\]\\n]{1,${LABEL_MAX}})\\]${LINK_TARGET}`, inner: 1 }, // link: its label
  { name: 'markup', re: '</?[A-Za-z][A-Za-z0-9-]*(?:\\s[^<>\\n]*)?/?>', speak: () => ' ' }, // HTML tags
];

const QUOTES: Record<string, string> = {
  '‘': "'",
  '’': "'",
  ʼ: "'",
  '′': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '″': '"',
  '«': '"',
  '»': '"',
};

/**
 * Typography that must sound exactly like its plain form: curly apostrophes and quotes become
 * straight ones (kokoro-js maps only some of them, misaki none), odd spaces plain spaces.
 */
export const TYPOGRAPHY: Rule[] = [
  { name: 'typography', re: '[‘’ʼ′‚“”„″«»]', speak: (g) => QUOTES[g[0]!] ?? g[0]! },
  { name: 'typography', re: '[\\u00A0\\u2000-\\u200A\\u202F\\u205F\\u3000]+', speak: () => ' ' },
  { name: 'typography', re: '[\\u00AD\\u200B\\u2060\\uFEFF]+', speak: () => '' }, // soft hyphens, zero-width spaces
  { name: 'typography', re: '(?<=[\\p{L}\\p{N}])--(?=[\\p{L}\\p{N}])', speak: () => ' — ' }, // "word--word": a dash
];

/** Stray markers, emoji and decorative symbols: after every class rule (they may be part of one). */
export const MARKUP_LEFTOVERS: Rule[] = [
  { name: 'markup', re: '(?<=[\\p{L}\\p{N}])_+(?=[\\p{L}\\p{N}])', speak: () => ' ' }, // snake_case
  { name: 'markup', re: '[*_~#`]+', speak: () => '' }, // emphasis, stray markers
  { name: 'markup', re: '\\|+|->|=>|<-', speak: () => ' ' },
  {
    name: 'markup',
    re:
      '(?:\\p{Extended_Pictographic}|[\\u{1F1E6}-\\u{1F1FF}\\u{1F3FB}-\\u{1F3FF}\\uFE0E\\uFE0F\\u200D\\u20E3]|' +
      '[•▪▫◦‣⁃►▸▶◀◂◆◇■□●○★☆✓✔✗✘✦✧➤➔→←↑↓↔⇒⇐⟶§¶†‡^\\\\])+',
    speak: () => ' ', // emoji and decorative symbols
  },
];
