// misaki's inline pronunciation syntax, `[Kokoro](/kˈOkəɹO/)`: a markdown link whose target is
// phonemes between slashes (misaki's README: https://github.com/hexgrad/misaki#english-usage; its
// link pattern in misaki/en.py). The word is shown and spoken with those phonemes. misaki's stress
// forms (`[word](-1)`, `[word](+2)`, `[word](0.5)`) speak the word as usual: Kokoro's phonemes
// here come from kokoro-js/espeak-ng, which has no stress levels to move (docs/design/pronunciation.md).
// Any other link target is left as it is written.
import { checkPhonemes, PronunciationError } from './pronunciation-error.ts';
import type { ScriptBuilder } from './script-builder.ts';

/** misaki's LINK_REGEX: [text](target), the text without ], the target without ). */
const LINK = /\[([^\]]+)\]\(([^)]*)\)/g;
const STRESS = /^(?:[+-]?\d+(?:\.\d+)?|0?\.\d+)$/;

/**
 * Appends `text` to the builder, turning inline pronunciations into fixed spans. `starts`/`ends`
 * give each character's source range; `symbols` is Kokoro's vocabulary.
 */
export function appendInline(
  builder: ScriptBuilder,
  text: string,
  starts: readonly number[],
  ends: readonly number[],
  symbols: ReadonlySet<string> | undefined,
): void {
  let cursor = 0;
  for (const m of text.matchAll(LINK)) {
    const [whole, word, target] = m as unknown as [string, string, string];
    const phonemes = target.length >= 2 && target.startsWith('/') && target.endsWith('/') ? target.slice(1, -1) : null;
    if (phonemes === null && !STRESS.test(target)) continue;
    builder.append(text.slice(cursor, m.index), starts.slice(cursor, m.index), ends.slice(cursor, m.index));
    const wordFrom = m.index + 1;
    if (!word.trim()) throw new PronunciationError(`inline pronunciation ${JSON.stringify(whole)} names no word`);
    const at = builder.length;
    builder.append(word, starts.slice(wordFrom, wordFrom + word.length), ends.slice(wordFrom, wordFrom + word.length));
    if (phonemes !== null) {
      checkPhonemes(phonemes, symbols, `inline pronunciation ${JSON.stringify(whole)}`);
      builder.override({ start: at, end: at + word.length, phonemes });
    } else builder.markMarkup();
    cursor = m.index + whole.length;
  }
  builder.append(text.slice(cursor), starts.slice(cursor), ends.slice(cursor));
}
