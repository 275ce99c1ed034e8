// The input side of a stream (LiveKit's text in, through a tokenizer) against the real container:
// a tokenizer's long sentence is cut before it reaches the container, and a failing input ends the
// stream with an error LiveKit sees (its `error` event), not an unhandled rejection or silence.
import { expect, test } from '@jest/globals';
import { APIError, tokenize } from '@livekit/agents';
import { TTS } from './index.ts';
import { quietLiveKit, readAll } from './testing/stand-in.ts';
import type { TtsErrorEvent } from './testing/texts.ts';
import { useStandIn } from './testing/use-stand-in.ts';

quietLiveKit();
const standIn = useStandIn({ maxTextChars: 300 });

function make(tokenizer: tokenize.SentenceTokenizer): { kokoro: TTS; errors: TtsErrorEvent[] } {
  const kokoro = new TTS({ ...standIn().modes.websocket, voice: 'af_heart', sentenceTokenizer: tokenizer });
  const errors: TtsErrorEvent[] = [];
  kokoro.on('error', (e) => errors.push(e));
  return { kokoro, errors };
}

test("a tokenizer's 2,000-character sentence is cut to the agent's bound: all of it spoken, no refusal", async () => {
  const { kokoro, errors } = make(new tokenize.basic.SentenceTokenizer());
  const stream = kokoro.stream();
  stream.pushText(Array.from({ length: 300 }, (_, k) => `word${k}`).join(' ') + '.');
  stream.endInput();
  const { audio, endOfStream } = await readAll(stream);
  expect(errors).toEqual([]);
  expect(endOfStream).toBe(true);
  expect(audio.length).toBeGreaterThan(0);
});

/** A tokenizer whose stream throws on its second pushText (a caller's tokenizer with a bug). */
class FailingTokenizer extends tokenize.basic.SentenceTokenizer {
  override stream(): tokenize.SentenceStream {
    const inner = super.stream();
    let pushes = 0;
    const pushText = inner.pushText.bind(inner);
    inner.pushText = (text: string) => {
      if (++pushes === 2) throw new Error('tokenizer broke');
      pushText(text);
    };
    return inner;
  }
}

test('an input pump that throws ends the stream with a non-retryable error naming the cause', async () => {
  const rejections: unknown[] = [];
  const onRejection = (r: unknown) => rejections.push(r);
  process.on('unhandledRejection', onRejection);
  try {
    const { kokoro, errors } = make(new FailingTokenizer());
    const stream = kokoro.stream();
    stream.pushText('The first sentence is fine and is spoken. ');
    stream.pushText('The second push breaks the tokenizer.');
    stream.endInput();
    const { endOfStream } = await readAll(stream);
    expect(endOfStream).toBe(false);
    expect(errors).toHaveLength(1);
    const [{ error, recoverable }] = errors as [TtsErrorEvent];
    expect(recoverable).toBe(false);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ retryable: false, body: { code: 'input_failed' } });
    expect(error.message).toMatch(/the text input failed: tokenizer broke/);
    expect(rejections).toEqual([]);
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});
