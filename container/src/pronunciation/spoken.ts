// A request's text as the stream speaks it: SSML (when asked) or plain text with misaki's inline
// syntax, then the deployment's lexicon on what is left unfixed. Every caller's text goes through
// here (protocol v1, POST /invocations, the OpenAI route, POST /v1/phonemize).
import type { SpokenText } from '../tts/spoken-text.ts';
import { appendInline } from './inline.ts';
import type { Lexicon } from './lexicon.ts';
import { identityOffsets, ScriptBuilder } from './script-builder.ts';
import { appendSsml } from './ssml.ts';

export interface PronunciationOptions {
  /** Read the text as SSML (its root must be <speak>). */
  ssml?: boolean;
  lexicon?: Lexicon | undefined;
  /** Kokoro's phoneme symbols: phonemes given in the text are checked against them. */
  symbols?: ReadonlySet<string> | undefined;
}

/** Throws a PronunciationError (400 invalid_message) naming the problem and where it is. */
export function spokenText(input: string, options: PronunciationOptions = {}): SpokenText {
  const builder = new ScriptBuilder();
  if (options.ssml) appendSsml(input, builder, options.symbols);
  else {
    const { starts, ends } = identityOffsets(input.length, 0);
    appendInline(builder, input, starts, ends, options.symbols);
  }
  if (options.lexicon) {
    const free = (start: number, end: number) =>
      !builder.overlapsOverride(start, end) && !builder.crossesPart(start, end);
    for (const m of options.lexicon.matches(builder.text, free)) builder.override(m);
  }
  return { ...builder.build(), inputChars: input.length };
}
