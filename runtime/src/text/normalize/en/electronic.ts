// Electronic class: web addresses, e-mail addresses, domain and file names, IP addresses.
// A person reading an answer aloud says "docs dot example dot com slash setup", not the scheme or
// "www", and skips a long path or a query: they are there to be clicked, not heard.
import type { Rule } from '../rules.ts';
import { digitByDigit } from './number-words.ts';

const SYMBOLS: Record<string, string> = {
  '.': 'dot',
  '-': 'dash',
  _: 'underscore',
  '&': 'ampersand',
  '+': 'plus',
  '/': 'slash',
  '~': 'tilde',
  '%': 'percent',
  '=': 'equals',
};

/** "gma4i-l" -> "gma 4 i dash l": letters as words, digits one by one, symbols named. */
function spokenLabel(label: string): string {
  return label
    .split(/([.\-_&+/~%=])/)
    .filter((part) => part !== '')
    .map((part) => SYMBOLS[part] ?? part.replace(/\d+/g, (d) => ` ${digitByDigit(d)} `))
    .join(' ')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const HOST = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;
const MAX_PATH = 40;

/** "https://www.docs.example.com/a/b" -> "docs dot example dot com slash a slash b"; odd hosts -> "a link". */
export function spokenUrl(url: string): string {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^www\./i, '');
  const [host = '', ...parts] = rest.split(/(?=[/?#])/);
  const bare = host.replace(/:\d+$/, '');
  if (!HOST.test(bare) || /^[\d.]+$/.test(bare) || bare.length > 40) return 'a link';
  const spokenHost = bare.split('.').map(spokenLabel).join(' dot ');
  return `${spokenHost}${spokenPath(parts.join(''))}`;
}

/** "/a/b-c" -> " slash a slash b dash c"; '' for none, and for a long path or one with a query. */
function spokenPath(path: string): string {
  if (path === '' || path === '/' || path.length > MAX_PATH || /[?#]/.test(path)) return '';
  return path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => ` slash ${spokenLabel(s)}`)
    .join('');
}

/** "jane.doe@example.com" -> "jane dot doe at example dot com". */
export function spokenEmail(address: string): string {
  const [user = '', domain = ''] = address.split('@');
  return `${spokenLabel(user)} at ${domain.split('.').map(spokenLabel).join(' dot ')}`;
}

/** Top-level domains common enough that "word.tld" in running text is a domain, not a typo. */
const TLDS =
  'com|org|net|edu|gov|io|ai|dev|app|co|uk|us|de|fr|it|es|nl|eu|ca|au|jp|in|ch|se|info|biz|me|tv|xyz|cloud|tech|sm';
/** File extensions read as "dot ext" ("index dot html"). */
const EXTENSIONS = 'html?|css|js|mjs|ts|tsx|jsx|json|ya?ml|toml|md|txt|csv|pdf|png|jpe?g|gif|svg|py|rs|go|java|sh|zip';

export const ELECTRONIC: Rule[] = [
  { name: 'electronic', re: '<((?:https?|ftp)://[^>\\s]+)>', speak: (g) => spokenUrl(g[1]!) }, // autolink
  {
    name: 'electronic',
    re: '\\b(?:https?://|ftp://|file://|www\\.)[^\\s<>()\\[\\]{}"\'*`|]{0,2000}[^\\s<>()\\[\\]{}"\'*`|.,;:!?]',
    speak: (g) => (/^file:/i.test(g[0]!) ? spokenFile(g[0]!) : spokenUrl(g[0]!)),
  },
  {
    name: 'electronic',
    // bounded as RFC 5321 bounds them (a local part of 64, labels of 63): a long run is linear
    re: '(?<![\\p{L}\\p{N}])[\\p{L}\\p{N}](?:[\\p{L}\\p{N}._%+&-]{0,62}[\\p{L}\\p{N}])?@[\\p{L}\\p{N}-]{1,63}(?:\\.[\\p{L}\\p{N}-]{1,63}){1,8}(?:/[\\p{L}\\p{N}/_-]{0,100}[\\p{L}\\p{N}])?',
    speak: (g) => {
      const slash = g[0]!.indexOf('/');
      return slash < 0 ? spokenEmail(g[0]!) : `${spokenEmail(g[0]!.slice(0, slash))}${spokenPath(g[0]!.slice(slash))}`;
    },
  },
  {
    // IPv4 addresses: each number digit by digit ("one two three dot one two three dot zero dot four zero")
    name: 'electronic',
    re: '(?<![\\d.])(?:\\d{1,3}\\.){3}\\d{1,3}(?![\\d.]{0,16}\\d)',
    speak: (g) => g[0]!.split('.').map(digitByDigit).join(' dot '),
  },
  {
    // bare domains and paths: "nvidia.com", "test2.uk", "ourdailynews.com/12-sm"
    name: 'electronic',
    re: `(?<![\\p{L}\\p{N}@./-])[\\p{L}\\p{N}][\\p{L}\\p{N}-]{0,62}(?:\\.[\\p{L}\\p{N}-]{1,63}){0,8}\\.(?:${TLDS})(?:/[\\p{L}\\p{N}/_-]{0,100}[\\p{L}\\p{N}])?(?![\\p{L}\\p{N}@]|\\.[\\p{L}\\p{N}])`,
    speak: (g) => spokenUrl(g[0]!),
  },
  {
    // file names: "intro.html", "package.json"
    name: 'electronic',
    re: `(?<![\\p{L}\\p{N}@./-])[\\p{L}\\p{N}_-]{1,100}\\.(?:${EXTENSIONS})(?![\\p{L}\\p{N}@]|\\.[\\p{L}\\p{N}])`,
    speak: (g) => g[0]!.split('.').map(spokenLabel).join(' dot '),
  },
];

/** "file:///photos/image.jpg" -> "file photos slash image dot jpg". */
function spokenFile(url: string): string {
  const path = url.replace(/^file:\/*/i, '');
  const segments = path.split('/').filter((s) => s !== '');
  return `file ${segments.map((s) => s.split('.').map(spokenLabel).join(' dot ')).join(' slash ')}`;
}
