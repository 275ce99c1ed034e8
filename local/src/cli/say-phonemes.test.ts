// Where `say --phonemes` asks, and how it prints the answer.
import { expect, test } from '@jest/globals';
import { formatPhonemes, phonemizeUrl } from './say-phonemes.ts';
import { UsageError } from './say-messages.ts';

test('--container is asked directly; else the local page server relays', () => {
  expect(phonemizeUrl('http://127.0.0.1:3000', undefined).href).toBe('http://127.0.0.1:3000/api/phonemize');
  expect(phonemizeUrl('http://127.0.0.1:3000', 'http://10.0.0.5:8080').href).toBe('http://10.0.0.5:8080/v1/phonemize');
  const arn = 'arn:aws:bedrock-agentcore:us-east-1:123456789012:runtime/agent-abc';
  expect(() => phonemizeUrl(arn, undefined)).toThrow(UsageError);
  expect(() => phonemizeUrl(arn, undefined)).toThrow('--phonemes asks a Kokoro container: give --container URL');
  expect(() => phonemizeUrl(arn, 'ftp://x')).toThrow('--container must be an http(s) URL');
});

test('one piece: phonemes and tokens; several: each piece, pauses and rates shown', () => {
  expect(
    formatPhonemes({
      phonemes: 'hˈI',
      tokens: [50, 156, 31],
      pieces: [{ text: 'Hi', phonemes: 'hˈI', tokens: [50, 156, 31] }],
      voice: 'af_heart',
      language: 'en-us',
    }),
  ).toBe('phonemes: hˈI\ntokens:   50 156 31\nlanguage en-us, voice af_heart');
  expect(
    formatPhonemes({
      phonemes: 'wˈʌn tˈu',
      tokens: [1, 2],
      pieces: [
        { text: 'One', phonemes: 'wˈʌn', tokens: [1] },
        { text: '', phonemes: '', tokens: [], pause_ms: 700 },
        { text: 'two', phonemes: 'tˈu', tokens: [2], rate: 0.75 },
      ],
      language: 'en-us',
    }).split('\n'),
  ).toEqual([
    'phonemes: wˈʌn tˈu',
    'tokens:   1 2',
    'pieces (one model run each):',
    '  1. "One" -> wˈʌn (1 tokens)',
    '  2. pause 700 ms',
    '  3. "two" -> tˈu (1 tokens) (rate 0.75)',
    'language en-us',
  ]);
});
