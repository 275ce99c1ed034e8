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

// Regressions found by the property tests (issue 27): the streamed text must show what the whole does.
test('a "[" inside the phonemes opens nothing: the streamed text shows the word', () => {
  for (const answer of ['[a](/x[y/) z', 'Say [Kokoro](/k[ˈO/) and [b](/c/).']) {
    for (const size of [1, 3, 7, answer.length]) {
      const stream = new ShownTextStream();
      const deltas = answer.match(new RegExp(`.{1,${size}}`, 'gsu'))!;
      expect(deltas.map((d) => stream.push(d)).join('') + stream.flush()).toBe(shownText(answer).text);
    }
  }
  expect(shownText('[a](/x[y/) z').text).toBe('a z');
});

test('a bracketed word past the look-ahead (over 100 characters) is no inline pronunciation, whole or streamed', () => {
  const long = `[${'w'.repeat(101)}](/ə/) then`;
  expect(shownText(long).text).toBe(long);
  const stream = new ShownTextStream();
  expect(stream.push(long.slice(0, 102)) + stream.push(long.slice(102)) + stream.flush()).toBe(long);
  const longest = `[${'w'.repeat(100)}](/${'ə'.repeat(200)}/) then`;
  expect(shownText(longest).text).toBe(`${'w'.repeat(100)} then`);
  const phonemesTooLong = `[w](/${'ə'.repeat(201)}/) then`;
  expect(shownText(phonemesTooLong).text).toBe(phonemesTooLong);
});
