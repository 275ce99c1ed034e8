// Sentences as shown: inline pronunciations as just their word, offsets mapped.
import { expect, test } from '@jest/globals';
import { shownText } from './inline-display.ts';

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
