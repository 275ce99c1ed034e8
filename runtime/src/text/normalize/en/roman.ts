// Roman class: "Chapter IV" -> "Chapter 4", "Henry VIII" -> "Henry the 8th", "WWII" ->
// "World War 2". espeak-ng reads a numeral as "Roman 4". Capitals that are also words or
// abbreviations ("I", "DC", "MIX", "CV") are numerals only where the word before says so.
import type { Rule } from '../rules.ts';
import { ordinalDigits } from './number-words.ts';

const VALUE: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };

/** The value of a well-formed Roman numeral, or undefined ("IIII", "VX" are not). */
export function romanValue(numeral: string): number | undefined {
  if (!/^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/.test(numeral) || numeral === '')
    return undefined;
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const v = VALUE[numeral[i]!]!;
    const next = VALUE[numeral[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/** Names of monarchs and popes: a numeral after them is an ordinal ("Henry the 8th"). */
const REGNAL =
  'Henry|Edward|George|William|Richard|Elizabeth|Charles|James|Louis|John|Mary|Anne|Victoria|Philip|Frederick|' +
  'Peter|Catherine|Alexander|Nicholas|Ivan|Napoleon|Ramesses|Ptolemy|Leo|Pius|Benedict|Gregory|Innocent|Clement|' +
  'Paul|Francis|Urban|Boniface|Alfonso|Ferdinand|Juan|Carlos|Felipe|Gustav|Olaf|Harald|Christian|Wilhelm|Otto|' +
  'Constantine|Justinian|Selim|Suleiman|Mehmed';
/** Words after which a numeral is a number ("Chapter IV", "Part XL", "Super Bowl LVIII"). */
const NUMBERED =
  'Chapter|Part|Volume|Vol\\.|Book|Act|Scene|Section|Article|Appendix|Phase|Stage|Level|Class|Type|Title|Season|' +
  'Episode|Bowl|War|Grade|Round|Year|Unit|Lesson|Psalm|Canto|Series|Mark|Model|Form|Schedule|Plate|Figure|Table';

export const ROMAN_RULES: Rule[] = [
  { name: 'roman', re: '\\bWW(II|I)\\b', speak: (g) => `World War ${g[1] === 'I' ? 1 : 2}` },
  {
    name: 'roman',
    re: `(?<=\\b(?:${REGNAL}) )(?:[IVX]{1,6})(?![\\p{L}\\p{N}'’-])`,
    speak: (g) => {
      const v = romanValue(g[0]!);
      return v === undefined ? g[0]! : `the ${ordinalDigits(v)}`;
    },
  },
  {
    name: 'roman',
    re: `(?<=\\b(?:${NUMBERED}|${NUMBERED.toUpperCase()}) )(?:[IVXLCDM]{1,8})(?![\\p{L}\\p{N}'’-])`,
    speak: (g) => String(romanValue(g[0]!) ?? g[0]!),
  },
  {
    // after any capitalised word, numerals of I, V and X of two or more letters: "Rocky II", "Apollo XI"
    name: 'roman',
    re: `(?<=\\b\\p{Lu}\\p{Ll}+ )(?:[IVX]{2,6})(?![\\p{L}\\p{N}'’-])`,
    speak: (g) => String(romanValue(g[0]!) ?? g[0]!),
  },
];
