// The plugin's input contract and options, against the real container on the stand-in model
// through the local SageMaker router: text after endInput(), word timings, another sample rate,
// a LiveKit tokenizer, a language.
import { describe, expect, test } from '@jest/globals';
import { tokenize } from '@livekit/agents';
import { InputEndedError, TTS } from './index.ts';
import type { TTSOptions } from './index.ts';
import { containerAudio, pcm, quietLiveKit, readAll } from './testing/stand-in.ts';
import { ANSWER, chunked, samples, sentences, sentencesOf, spoken } from './testing/texts.ts';
import type { TtsErrorEvent } from './testing/texts.ts';
import { useStandIn } from './testing/use-stand-in.ts';

quietLiveKit();
const standIn = useStandIn({}, { durations: true });

describe('the input contract and the options', () => {
  const make = (o: TTSOptions = {}) => new TTS({ ...standIn().modes.sagemaker, voice: 'af_heart', ...o });

  test('pushText() or flush() after endInput() throws; what came before is spoken; endInput() twice is harmless', async () => {
    const stream = make().stream();
    stream.pushText('Spoken before the end.');
    stream.endInput();
    expect(() => stream.pushText('Too late.')).toThrow(InputEndedError);
    expect(() => stream.pushText('Too late.')).toThrow(/pushText\(\) after endInput\(\): .*open a new stream\(\)/);
    expect(() => stream.flush()).toThrow(/flush\(\) after endInput\(\)/);
    expect(() => stream.endInput()).not.toThrow();
    const { audio, endOfStream } = await readAll(stream);
    expect(endOfStream).toBe(true);
    const reference = await containerAudio(standIn().container, ['Spoken before the end.'], { voice: 'af_heart' });
    expect(pcm(audio).equals(reference[0]!)).toBe(true);
  });

  test('word timings arrive as the aligned transcript: the text as shown, on the audio clock', async () => {
    const kokoro = make();
    expect(kokoro.capabilities).toEqual({ streaming: true, alignedTranscript: true });
    const stream = kokoro.stream();
    const text = 'It costs $5 per month. Cancel any time, really.';
    stream.pushText(text);
    stream.endInput();
    const { audio } = await readAll(stream);
    const timed = audio.flatMap((a) => a.timedTranscripts ?? []);
    expect(timed.map((t) => t.text).join('')).toBe(sentences(text).join(' '));
    const starts = timed.flatMap((t) => (t.startTime === undefined ? [] : [t.startTime]));
    expect(starts.length).toBeGreaterThan(8);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const total = samples(audio) / 24000;
    for (const t of timed) if (t.endTime !== undefined) expect(t.endTime).toBeLessThanOrEqual(total + 1e-6);
    // The second sentence's words start after the first sentence's audio.
    const second = timed.find((t) => t.text.includes('Cancel'))!;
    const firstSamples = samples(
      audio.slice(
        0,
        audio.findIndex((a, i) => i > 0 && a.deltaText !== undefined),
      ),
    );
    expect(second.startTime!).toBeGreaterThanOrEqual(firstSamples / 24000);
    const quiet = make({ wordTimestamps: false });
    expect(quiet.capabilities.alignedTranscript).toBe(false);
    const plain = quiet.stream();
    plain.pushText(text);
    plain.endInput();
    expect((await readAll(plain)).audio.some((a) => a.timedTranscripts)).toBe(false);
  });

  test('sampleRate 16000: frames at 16 kHz, the container audio at that rate', async () => {
    const kokoro = make({ sampleRate: 16000 });
    expect(kokoro.sampleRate).toBe(16000);
    const stream = kokoro.stream();
    stream.pushText('Spoken at sixteen kilohertz.');
    stream.endInput();
    const { audio } = await readAll(stream);
    const reference = await containerAudio(standIn().container, ['Spoken at sixteen kilohertz.'], {
      voice: 'af_heart',
      sample_rate: 16000,
    });
    expect(audio.every((a) => a.frame.sampleRate === 16000)).toBe(true);
    expect(pcm(audio).equals(reference[0]!)).toBe(true);
  });

  test('a language alone picks its voice and its text is normalised by its rules; a voice of another language fails', async () => {
    const spanish = make({ voice: undefined, language: 'es' }).stream();
    spanish.pushText('Cuesta $5 al mes.');
    spanish.endInput();
    const { audio } = await readAll(spanish);
    // Spanish words for the money ("5 dólares"), never English ones
    const [reference] = await containerAudio(standIn().container, ['Cuesta 5 dólares al mes.'], { voice: 'ef_dora' });
    expect(pcm(audio).equals(reference!)).toBe(true);
    const kokoro = make({ language: 'es' }); // af_heart, given above, speaks American English
    const errors: TtsErrorEvent[] = [];
    kokoro.on('error', (e) => errors.push(e));
    const wrong = kokoro.stream();
    wrong.pushText('Hola.');
    wrong.endInput();
    expect((await readAll(wrong)).audio).toEqual([]);
    expect(errors.map((e) => e.error)).toMatchObject([
      {
        statusCode: 400,
        retryable: false,
        message: 'Kokoro TTS: voice af_heart speaks en-us, not the language asked (es)',
      },
    ]);
  });

  test('a LiveKit tokenizer cuts the text when given: its sentences are the utterances', async () => {
    const tokenizer = new tokenize.basic.SentenceTokenizer();
    const stream = make({ sentenceTokenizer: tokenizer }).stream();
    stream.updateInputStream(chunked(ANSWER));
    const { audio } = await readAll(stream);
    const expected: string[] = [];
    const own = tokenizer.stream();
    own.pushText(ANSWER);
    own.endInput();
    for await (const t of own) expected.push(t.token);
    expect(sentencesOf(audio)).toEqual(expected);
    const reference = await containerAudio(standIn().container, spoken(expected), { voice: 'af_heart' });
    expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
  });
});
