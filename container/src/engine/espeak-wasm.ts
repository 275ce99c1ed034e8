// espeak-ng with all its language data, compiled to WebAssembly (@echogarden/espeak-ng-emscripten,
// GPL-3.0): text to IPA phonemes, clause by clause, in the form misaki asks espeak-ng for (a tie
// inside multi-letter phonemes). Loaded on first use, once per prep worker (about 57 MB).
// Why this build and how its output relates to misaki's: docs/design/languages.md.

/** The part of the Emscripten module we use (the package ships no types). */
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
  getPointer(p: unknown): number;
  HEAPU8: Uint8Array;
  _free(ptr: number): void;
}
interface EspeakWorker {
  set_voice(name: string, lang: string, gender: number, age: number, variant: number): number;
  /** espeak_TextToPhonemes over the whole text, IPA, '_' between phonemes, ' | ' between clauses. */
  text_to_phonemes(text: string, ipa: number): unknown;
}

/** The tie misaki gives phonemizer (tie='^'), which phonemizer puts where espeak-ng puts U+0361. */
export const TIE = '^';

/**
 * A clause in espeak-ng's tie form, from its separator form. espeak-ng (src/libespeak-ng/dictionary.c,
 * GetTranslatedPhonemeString) writes a tie before each non-initial character of a phoneme's name
 * that is alphabetic and outside U+02B0..U+036F (modifier letters and diacritics); stress marks
 * come before the name and are not counted. In separator form the names are the '_'-separated
 * units, so the same rule applied to each unit gives what tie mode prints.
 */
export function tieForm(clause: string): string {
  return clause
    .split(' ')
    .map((word) => word.split('_').map(tieUnit).join(''))
    .join(' ');
}

const STRESS = /[ˈˌ]/u;
const LETTER = /\p{L}/u;

function tieUnit(unit: string): string {
  let out = '';
  let seen = 0;
  for (const ch of unit) {
    const stress = STRESS.test(ch);
    const cp = ch.codePointAt(0)!;
    if (!stress && seen > 0 && (cp < 0x2b0 || cp > 0x36f) && LETTER.test(ch)) out += TIE;
    out += ch;
    if (!stress) seen++;
  }
  return out;
}

export class EspeakWasm {
  readonly #module: EspeakModule;
  readonly #worker: EspeakWorker;
  #voice = '';
  private constructor(module: EspeakModule) {
    this.#module = module;
    this.#worker = new module.eSpeakNGWorker();
  }

  static async load(): Promise<EspeakWasm> {
    // @ts-expect-error the package has no type declarations; EspeakModule above is what we use of it
    const { default: factory } = (await import('@echogarden/espeak-ng-emscripten')) as {
      default: () => Promise<EspeakModule>;
    };
    return new EspeakWasm(await factory());
  }

  /**
   * The clauses of `text` as espeak-ng phonemises them with `voice` (an identifier such as
   * roa/es), each in tie form; clauses espeak-ng says nothing for are left out, as phonemizer does.
   */
  clauses(text: string, voice: string): string[] {
    if (voice !== this.#voice) {
      // Switching costs ~0.8 ms (the language's dictionary is loaded), so keep the last one.
      if (this.#worker.set_voice(voice, '', 0, 0, 0) !== 0) throw new Error(`espeak-ng has no voice ${voice}`);
      this.#voice = voice;
    }
    const out = this.#read(this.#worker.text_to_phonemes(text, 1));
    return out
      .split(' | ')
      .filter((clause) => clause !== '')
      .map(tieForm);
  }

  /** The C string the glue allocated, decoded and freed. */
  #read(pointer: unknown): string {
    const { HEAPU8 } = this.#module;
    const start = this.#module.getPointer(pointer);
    const end = HEAPU8.indexOf(0, start);
    const text = new TextDecoder().decode(HEAPU8.subarray(start, end));
    this.#module._free(start);
    return text;
  }
}
