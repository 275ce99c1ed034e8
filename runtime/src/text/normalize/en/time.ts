// Time class: "10:30 am", "01:00 a.m." -> "1 am", "1.59 p.m.", "14:30", "09:05", "14:10:30",
// time zones spelt ("EST" -> "E S T"). kokoro-js reads 1:00-12:59 itself ("10:30" -> "10 30",
// "10:00" -> "10 o'clock"), so those stay digits; "am"/"pm" are written so espeak-ng says "a m".
import type { Rule } from '../rules.ts';

const ZONES = 'UTC|GMT|EST|EDT|CST|CDT|MST|MDT|PST|PDT|AKST|HST|CET|CEST|EET|BST|IST|JST|KST|AEST|AEDT';
/** am/pm, dotted or not; a final dot before a capital or the end is the sentence's and stays. */
const AMPM = '(?:[AaPp]\\.[Mm](?:\\.(?=\\s+\\p{Ll}|,))?|[AaPp][Mm](?![\\p{L}]))';
const ZONE = `(?:${ZONES}|(?<=[AaPp]\\.?[Mm]\\.?\\s?)(?:[Ee]\\.?[Ss]\\.?[Tt]|[Pp]\\.?[Ss]\\.?[Tt]|[Cc]\\.?[Ss]\\.?[Tt]))(?![\\p{L}])`;

const meridiem = (written: string): string => (/^[Aa]/.test(written) ? 'am' : 'pm');
const zone = (written: string | undefined): string =>
  written === undefined ? '' : ` ${written.replace(/\./g, '').toUpperCase().split('').join(' ')}`;

/** Zero-padded and 24-hour times, which kokoro-js leaves alone: "09:05" -> "9 oh 5", "14:00" -> "14 hundred". */
export function spokenClock(hours: string, minutes: string): string {
  const h = Number(hours);
  const m = Number(minutes);
  const head = h === 0 ? 'zero' : String(h);
  if (m === 0) return h === 0 || h > 12 ? `${head} hundred` : `${head} o'clock`;
  return m < 10 ? `${head} oh ${m}` : `${head} ${m}`;
}

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "14:10:30" -> "14 hours 10 minutes and 30 seconds". */
const spokenDuration = (h: string, m: string, s: string): string =>
  `${plural(Number(h), 'hour')} ${plural(Number(m), 'minute')} and ${plural(Number(s), 'second')}`;

export function spokenTime(g: ReadonlyArray<string | undefined>): string {
  const [, hours = '', minutes, seconds, ampm, tz] = g;
  const h = Number(hours);
  if (seconds !== undefined)
    return `${spokenDuration(hours, minutes!, seconds)}${ampm ? ` ${meridiem(ampm)}` : ''}${zone(tz)}`;
  if (ampm === undefined) {
    const clock = h > 12 || hours.startsWith('0') ? spokenClock(hours, minutes!) : `${h}:${minutes}`;
    return `${clock}${zone(tz)}`;
  }
  const clock = minutes === undefined || minutes === '00' ? String(h) : `${h}:${minutes}`;
  return `${clock} ${meridiem(ampm)}${zone(tz)}`;
}

/** One time of day: "10:30 am", "1.59 p.m.", "5pm", "23:00", "1:59 p.m. est", "14:10:30". */
export const TIME =
  `(?<![\\p{L}\\p{N}:.])(?:([01]?\\d|2[0-3])(?::([0-5]\\d)(?::([0-5]\\d))?|\\.([0-5]\\d)(?=\\s?${AMPM}))` +
  `(?:\\s?(${AMPM}))?|(1[0-2]|0?[1-9])\\s?(${AMPM}))(?:\\s?(${ZONE}))?(?![\\p{N}:])`;

/** The groups of TIME in the order spokenTime takes them. */
export const timeGroups = (g: ReadonlyArray<string | undefined>): Array<string | undefined> => [
  g[0],
  g[1] ?? g[6],
  g[2] ?? g[4],
  g[3],
  g[5] ?? g[7],
  g[8],
];

export const TIME_RULES: Rule[] = [
  {
    // "10am", "5pm": espeak-ng reads them as they are
    name: 'time',
    re: `(?<![\\p{L}\\p{N}:.])(?:1[0-2]|[1-9])[ap]m(?![\\p{L}\\p{N}])(?!\\s?(?:${ZONES}))`,
    speak: (g) => g[0]!,
  },
  {
    name: 'time',
    re: TIME,
    speak: (g) => {
      const t = timeGroups(g);
      // a bare "12:30" or "9:05" with nothing else: kokoro-js reads it
      return t[3] === undefined && t[4] === undefined && t[5] === undefined && !/^(?:0\d|1[3-9]|2\d)/.test(t[1]!)
        ? g[0]!
        : spokenTime(t);
    },
  },
];
