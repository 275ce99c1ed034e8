// The SSML subset, read with saxes (a maintained, conforming XML parser that reports line and
// column): <speak> (the root), <break>, <phoneme alphabet="ipa" ph>, <sub alias>, <say-as>,
// <prosody rate>. Anything else is refused naming it and where it is; text inside may use misaki's
// inline syntax too. Elements and attributes: SSML 1.1, https://www.w3.org/TR/speech-synthesis11/.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { appendInline } from './inline.ts';
import { checkPhonemes, PronunciationError } from './pronunciation-error.ts';
import { sayAs } from './say-as.ts';
import type { ScriptBuilder } from './script-builder.ts';
import { breakMs, MAX_PAUSE_TOTAL_MS, rateFactor } from './ssml-values.ts';

export const SSML_ELEMENTS = ['speak', 'break', 'phoneme', 'sub', 'say-as', 'prosody'] as const;
/** Attributes each element takes; others are refused (xml:lang, xmlns and version are accepted and ignored). */
const ATTRIBUTES: Record<string, readonly string[]> = {
  speak: ['version', 'xml:lang', 'xmlns', 'xmlns:xsi', 'xsi:schemaLocation'],
  break: ['time', 'strength'],
  phoneme: ['alphabet', 'ph'],
  sub: ['alias'],
  'say-as': ['interpret-as', 'format', 'detail'],
  prosody: ['rate'],
};
/** Elements whose content is the text they pronounce: text only, no inline syntax. */
const TEXT_ONLY = new Set(['phoneme', 'sub', 'say-as']);

/** Does `text` look like SSML (its root is <speak>, maybe after an XML declaration)? */
export function looksLikeSsml(text: string): boolean {
  return /^\s*(?:<\?xml[^>]*\?>\s*)?<speak[\s>/]/.test(text);
}

/** IPA tie bars (U+0361, U+035C) joining affricates, as Kokoro's single symbols; other ties dropped. */
function kokoroIpa(ph: string): string {
  const tied: [RegExp, string][] = [
    [/t[\u0361\u035c]ʃ/g, 'ʧ'],
    [/d[\u0361\u035c]ʒ/g, 'ʤ'],
    [/t[\u0361\u035c]s/g, 'ʦ'],
    [/d[\u0361\u035c]z/g, 'ʣ'],
  ];
  for (const [re, symbol] of tied) ph = ph.replace(re, symbol);
  return ph.replace(/[\u0361\u035c]/g, '');
}

function lineColumn(src: string, offset: number): string {
  const before = src.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Each decoded character's range in `raw` (entities and CR LF are one character from several). */
function rawRanges(decoded: string, raw: string, from: number): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let i = 0;
  while (i < raw.length && starts.length < decoded.length) {
    let next = i + 1;
    if (raw[i] === '&') next = raw.indexOf(';', i) + 1 || raw.length;
    else if (raw[i] === '\r' && raw[i + 1] === '\n') next = i + 2;
    const produced =
      raw[i] === '&' && /^&#x?[0-9a-f]+;$/i.test(raw.slice(i, next)) ? decodedLength(raw.slice(i, next)) : 1;
    for (let k = 0; k < produced; k++) {
      starts.push(from + i);
      ends.push(from + next);
    }
    i = next;
  }
  if (starts.length !== decoded.length) {
    // Not the text between the tags (CDATA): every character points at the whole of it.
    return { starts: [...decoded].map(() => from), ends: [...decoded].map(() => from + raw.length) };
  }
  return { starts, ends };
}

function decodedLength(entity: string): number {
  const hex = entity.startsWith('&#x') || entity.startsWith('&#X');
  const code = parseInt(entity.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
  return code > 0xffff ? 2 : 1;
}

interface Open {
  name: string;
  attributes: Record<string, string>;
  /** Where its content starts in the builder's text. */
  start: number;
  /** The rate before it (prosody). */
  rateBefore: number;
  where: string;
}

/** Reads the SSML document `src` into `builder`; `symbols` checks <phoneme ph> and inline phonemes. */
export function appendSsml(src: string, builder: ScriptBuilder, symbols: ReadonlySet<string> | undefined): void {
  const parser = new SaxesParser({ position: true, xmlns: false });
  const stack: Open[] = [];
  /** Where the markup before the next text ends. */
  let markupEnd = 0;
  let pausedMs = 0;
  const tagStart = () => src.lastIndexOf('<', parser.position - 1);
  const fail = (message: string, at: number): never => {
    throw new PronunciationError(`SSML ${lineColumn(src, at)} (offset ${at}): ${message}`);
  };
  const onText = (text: string, rawStart: number, rawEnd: number) => {
    markupEnd = parser.position;
    if (stack.length === 0 || text === '') return;
    const { starts, ends } = rawRanges(text, src.slice(rawStart, rawEnd), rawStart);
    if (TEXT_ONLY.has(stack.at(-1)!.name)) builder.append(text, starts, ends);
    else appendInline(builder, text, starts, ends, symbols);
  };

  parser.on('text', (text) => onText(text, markupEnd, parser.position - 1));
  parser.on('cdata', (text) => onText(text, markupEnd, parser.position));
  for (const event of ['comment', 'processinginstruction', 'xmldecl'] as const) {
    parser.on(event, () => void (markupEnd = parser.position));
  }
  parser.on('doctype', () => fail('a DOCTYPE is not allowed in SSML', tagStart()));
  parser.on('opentag', (tag: SaxesTagPlain) => {
    markupEnd = parser.position;
    const at = tagStart();
    const where = `<${tag.name}> at ${lineColumn(src, at)}`;
    const parent = stack.at(-1);
    if (!parent && tag.name !== 'speak') fail(`the root element must be <speak>, not <${tag.name}>`, at);
    if (parent && tag.name === 'speak') fail('<speak> must be the root element only', at);
    if (parent && TEXT_ONLY.has(parent.name)) fail(`<${parent.name}> may contain only text, not <${tag.name}>`, at);
    const allowed = ATTRIBUTES[tag.name];
    if (!allowed) {
      fail(
        `the element <${tag.name}> is not supported; supported: ${SSML_ELEMENTS.map((e) => `<${e}>`).join(', ')}`,
        at,
      );
    }
    for (const name of Object.keys(tag.attributes)) {
      if (!allowed!.includes(name) && !name.startsWith('xmlns')) {
        fail(
          `the attribute ${name} of <${tag.name}> is not supported; supported: ${allowed!.join(', ') || 'none'}`,
          at,
        );
      }
    }
    const a = tag.attributes;
    const need = (name: string) => a[name] ?? fail(`<${tag.name}> needs the attribute ${name}`, at);
    switch (tag.name) {
      case 'break': {
        const ms = breakMs(a['time'], a['strength'], where);
        pausedMs += ms;
        if (pausedMs > MAX_PAUSE_TOTAL_MS) {
          fail(
            `the <break>s so far total ${pausedMs / 1000} s; one text's breaks may total at most ` +
              `${MAX_PAUSE_TOTAL_MS / 1000} s (container/README.md, Output bounds): send the rest as another text`,
            at,
          );
        }
        if (ms > 0) builder.pause(ms);
        break;
      }
      case 'phoneme':
        need('ph');
        if (a['alphabet'] !== undefined && a['alphabet'] !== 'ipa') {
          fail(`<phoneme alphabet="${a['alphabet']}"> is not supported; use alphabet="ipa" with Kokoro's symbols`, at);
        }
        break;
      case 'sub':
        need('alias');
        break;
      case 'say-as':
        need('interpret-as');
        break;
    }
    const rateBefore = builder.rate;
    if (tag.name === 'prosody' && a['rate'] !== undefined) builder.rate = rateBefore * rateFactor(a['rate'], where);
    stack.push({ name: tag.name, attributes: a, start: builder.length, rateBefore, where });
  });
  parser.on('closetag', () => {
    markupEnd = parser.position;
    const open = stack.pop()!;
    const { name, attributes: a, start, where } = open;
    const end = builder.length;
    if (TEXT_ONLY.has(name) && builder.text.slice(start, end).trim() === '') {
      throw new PronunciationError(`SSML ${where}: <${name}> needs the text it stands for`);
    }
    if (name === 'phoneme') {
      const phonemes = kokoroIpa(a['ph']!);
      checkPhonemes(phonemes, symbols, `SSML ${where} ph="${a['ph']}"`);
      builder.override({ start, end, phonemes });
    } else if (name === 'sub') {
      builder.override({ start, end, say: a['alias']! });
    } else if (name === 'say-as') {
      const said = sayAs(builder.text.slice(start, end), a['interpret-as']!, a['format']);
      builder.override({ start, end, say: said });
    } else if (name === 'prosody') builder.rate = open.rateBefore;
  });

  builder.markMarkup();
  try {
    parser.write(src).close();
  } catch (error) {
    if (error instanceof PronunciationError) throw error;
    // saxes: "line:column: message" (line from 1, column of the offending character from 1).
    const m = /^(\d+):(\d+): (.*)$/s.exec((error as Error).message);
    throw new PronunciationError(
      m
        ? `SSML is not well-formed at line ${m[1]}, column ${m[2]}: ${m[3]}`
        : `SSML is not well-formed: ${(error as Error).message}`,
    );
  }
}
