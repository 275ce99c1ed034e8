// Sentences as shown: inline pronunciations as just their word, offsets mapped.
import { expect, test } from '@jest/globals';
import { ShownTextStream, shownText } from './inline-display.ts';

test('the word stays, the markup goes, offsets land on the word', () => {
  const written = 'Meet [Kokoro](/kˈOkəɹO/) and [New York](/nˈu jˈɔɹk/)!';
  const shown = shownText(written);
  expect(shown.text).toBe('Meet Kokoro and New York!');
  const span = (word: string) => {
    const start = written.indexOf(word);
    return shown.text.slice(shown.at(start), shown.at(start + word.length));
  };
  expect(span('Kokoro')).toBe('Kokoro');
  expect(span('New York')).toBe('New York');
  expect(span('Meet')).toBe('Meet');
  expect(shown.at(written.length)).toBe(shown.text.length);
});

test('text without it, and ordinary links, are left as they are', () => {
  for (const text of ['Plain text.', 'A [link](https://example.com) here.', '[x](-1) stress']) {
    expect(shownText(text).text).toBe(text);
  }
});

test('streamed: markup split across deltas shows as its word; other brackets pass, joined as written', () => {
  const answer = 'See [Kokoro](/kˈOkəɹO/) and [the docs](https://x.io) [a] b. [unfinished';
  for (const size of [1, 2, 3, 5, 8, 100]) {
    const stream = new ShownTextStream();
    const deltas = answer.match(new RegExp(`.{1,${size}}`, 'gsu'))!;
    const shown = deltas.map((d) => stream.push(d)).join('') + stream.flush();
    expect(shown).toBe('See Kokoro and [the docs](https://x.io) [a] b. [unfinished');
  }
  // Nothing is held back once it cannot be markup.
  const stream = new ShownTextStream();
  expect(stream.push('Hi [there')).toBe('Hi ');
  expect(stream.push('] you')).toBe('[there] you');
  expect(stream.push(' [Kokoro](/kˈO')).toBe(' ');
  expect(stream.push('kəɹO/) now')).toBe('Kokoro now');
});
