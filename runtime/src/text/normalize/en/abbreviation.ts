// Abbreviations and symbols kokoro-js would spell out or read as a word ("e.g.", "w/", "C#",
// "#1", "~3", "§ 5"). Those kokoro-js expands itself (Dr., Mr., Mrs., Ms., etc.) are left to it.
import type { Rule } from '../rules.ts';

const ABBREVIATIONS: Record<string, string> = {
  'e.g.': 'for example',
  'i.e.': 'that is',
  'approx.': 'approximately',
  'vs.': 'versus',
  vs: 'versus',
  'Prof.': 'Professor',
  'Fig.': 'figure',
  'w/o': 'without',
  'w/': 'with',
  'No.': 'number',
  'no.': 'number',
  'Jr.': 'Junior',
  'Sr.': 'Senior',
};

const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}])';

export const ABBREVIATION_RULES: Rule[] = [
  {
    name: 'abbreviation',
    re: `${NOT_WORD_BEFORE}(e\\.g\\.|i\\.e\\.|approx\\.|vs\\.?|Prof\\.|Fig\\.|Jr\\.|Sr\\.|w/o|w/|[Nn]o\\.(?=\\s?\\d))(?![\\p{L}])`,
    speak: (g) => ABBREVIATIONS[g[1]!] ?? g[1]!,
  },
  { name: 'abbreviation', re: `${NOT_WORD_BEFORE}([CF])#${NOT_WORD_AFTER}`, speak: (g) => `${g[1]} sharp` },
  { name: 'abbreviation', re: '#(?=\\d)', speak: () => 'number ' },
  { name: 'abbreviation', re: '\\b401\\(k\\)', speak: () => '4 oh 1 k' },
  { name: 'abbreviation', re: '~(?=\\d)', speak: () => 'about ' },
  { name: 'abbreviation', re: '§§?(?=\\s?\\d)', speak: (g) => (g[0] === '§§' ? 'sections ' : 'section ') },
];
