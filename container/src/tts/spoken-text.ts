// An utterance as the stream speaks it: the script the prep workers get (engine/script.ts) and the
// way back from its shown text to the text the client sent, so that word offsets keep pointing
// into the `text` message (docs/contracts/container-protocol-v1.md) when markup was taken out.
import { plainScript, type Script } from '../engine/script.ts';

export interface SpokenText {
  script: Script;
  /** The script is the text as sent, nothing added (prepared as a plain string). */
  plain: boolean;
  /** The offsets in the text as sent of script.text[start, end). */
  source(start: number, end: number): { start: number; end: number };
  /** Characters of the text as sent, markup included (the output bound counts them: tts/output-bound.ts). */
  inputChars?: number;
}

export function plainSpoken(text: string): SpokenText {
  return {
    script: plainScript(text),
    plain: true,
    source: (start, end) => ({ start, end }),
    inputChars: text.length,
  };
}
