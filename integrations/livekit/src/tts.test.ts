// The plugin against the real container (protocol v1 server, kokoro-js, ONNX runtime) on the
// stand-in model, through the local SageMaker router (SigV4, HTTP/2 bidi) and over the container's
// WebSocket: what LiveKit's voice pipeline relies on, checked against the container's own audio.
import { describe, expect, test } from '@jest/globals';
import { APIStatusError } from '@livekit/agents';
import type { metrics, tts } from '@livekit/agents';
import { TTS } from './index.ts';
import type { TTSOptions } from './index.ts';
import { containerAudio, pcm, quietLiveKit, readAll, routerIdle, until } from './testing/stand-in.ts';
import { ANSWER, chunked, samples, sentences, spoken } from './testing/texts.ts';
import type { TtsErrorEvent } from './testing/texts.ts';
import { useStandIn } from './testing/use-stand-in.ts';

quietLiveKit();
const standIn = useStandIn({}, { durations: true });

describe.each(['sagemaker', 'websocket'] as const)('%s mode', (mode) => {
  const make = (o: TTSOptions = {}) => new TTS({ ...standIn().modes[mode], voice: 'af_heart', ...o });

  test('stream(): every sentence once and in order; the frames are the container audio of them, 24 kHz mono', async () => {
    const kokoro = make();
    const stream = kokoro.stream();
    stream.updateInputStream(chunked(ANSWER));
    const { audio, endOfStream } = await readAll(stream);
    const pieces = sentences(ANSWER);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    const reference = await containerAudio(standIn().container, spoken(pieces), { voice: 'af_heart' });
    expect(endOfStream).toBe(true);
    expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
    expect(new Set(audio.map((a) => [a.frame.sampleRate, a.frame.channels].join()))).toEqual(new Set(['24000,1']));
    expect(kokoro.sampleRate).toBe(24000);
    expect(kokoro.numChannels).toBe(1);
    // Each sentence's first frame names it; its frames hold exactly its samples.
    const starts = audio.flatMap((a, i) => (a.deltaText === undefined ? [] : [i]));
    expect(starts.map((i) => audio[i]!.deltaText)).toEqual(pieces);
    starts.forEach((start, k) => {
      const own = audio.slice(start, starts[k + 1] ?? audio.length);
      expect(samples(own) * 2).toBe(reference[k]!.length);
    });
    expect(new Set(audio.map((a) => a.requestId)).size).toBe(1);
    stream.close();
  });

  test('a complete sentence is spoken before flush(), while the LLM is still writing', async () => {
    const stream = make().stream();
    const [first] = await containerAudio(standIn().container, ['The first sentence is complete.'], {
      voice: 'af_heart',
    });
    const audio: tts.SynthesizedAudio[] = [];
    const reading = readAll(stream, (a) => audio.push(a));
    stream.pushText('The first sentence is complete. The sec');
    await until(() => samples(audio) * 2 >= first!.length, 10_000, "the first sentence's audio");
    expect(pcm(audio).equals(first!)).toBe(true); // all of it, and nothing of the unfinished one
    stream.pushText('ond is still being written.');
    stream.endInput();
    await reading;
    const rest = await containerAudio(standIn().container, ['The second is still being written.'], {
      voice: 'af_heart',
    });
    expect(pcm(audio).equals(Buffer.concat([first!, rest[0]!]))).toBe(true);
    stream.close();
  });

  test('flush() ends a segment: its last frame is final, the next has a new id, metrics per segment', async () => {
    const kokoro = make();
    const collected: metrics.TTSMetrics[] = [];
    kokoro.on('metrics_collected', (m) => collected.push(m));
    const stream = kokoro.stream();
    const one = 'First segment, its first sentence. And its second one.';
    const two = 'The second segment speaks alone.';
    stream.pushText(one);
    stream.flush();
    stream.pushText(two);
    stream.endInput();
    const { audio } = await readAll(stream);
    const segments = [...new Set(audio.map((a) => a.segmentId))];
    expect(segments).toHaveLength(2);
    const bySegment = segments.map((id) => audio.filter((a) => a.segmentId === id));
    // In order: all of the first segment, then all of the second.
    expect(audio.map((a) => a.segmentId)).toEqual(bySegment.flatMap((frames) => frames.map((a) => a.segmentId)));
    for (const frames of bySegment)
      expect(frames.map((a) => a.final)).toEqual(frames.map((_, i) => i === frames.length - 1));
    const reference = await containerAudio(standIn().container, spoken([...sentences(one), ...sentences(two)]), {
      voice: 'af_heart',
    });
    const firstCount = sentences(one).length;
    expect(pcm(bySegment[0]!).equals(Buffer.concat(reference.slice(0, firstCount)))).toBe(true);
    expect(pcm(bySegment[1]!).equals(Buffer.concat(reference.slice(firstCount)))).toBe(true);
    await until(() => collected.length === 2, 5000, 'the metrics of both segments');
    expect(collected.map((m) => m.charactersCount)).toEqual([one.length, two.length]);
    expect(collected.map((m) => m.audioDurationMs)).toEqual(bySegment.map((f) => Math.round(samples(f) / 24)));
    for (const m of collected) {
      expect(m).toMatchObject({ label: 'kokoro.TTS', streamed: true, cancelled: false });
      expect(m.ttfbMs).toBeGreaterThanOrEqual(0);
      expect(m.durationMs).toBeGreaterThanOrEqual(m.ttfbMs);
      expect(m.metadata).toEqual({ modelProvider: 'Kokoro', modelName: 'Kokoro-82M' });
    }
    stream.close();
  });

  test('close() mid-sentence: no frame after it, the session is gone; close() twice is harmless', async () => {
    const kokoro = make();
    const errors: unknown[] = [];
    kokoro.on('error', (e) => errors.push(e));
    const stream = kokoro.stream();
    const long = Array.from({ length: 60 }, (_, i) => `word${i % 10}`).join(' ');
    stream.pushText(`${long}. ${long}. ${long}.`);
    stream.flush();
    let closedAt = -1;
    const seen: tts.SynthesizedAudio[] = [];
    const reading = readAll(stream, (a) => {
      seen.push(a);
      if (closedAt < 0) {
        closedAt = seen.length;
        stream.close();
        stream.close();
      }
    });
    const { endOfStream } = await reading;
    expect(closedAt).toBe(1);
    expect(seen).toHaveLength(1);
    expect(endOfStream).toBe(false);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    if (mode === 'sagemaker') {
      await routerIdle(standIn());
    }
    expect(() => stream.pushText('more text after close')).not.toThrow(); // ignored, as LiveKit does
    await kokoro.close();
    await kokoro.close();
    expect(errors).toEqual([]);
  });

  test('synthesize(): the audio of the text, sentence after sentence, its last frame final', async () => {
    const kokoro = make();
    const text = 'One text at once. It has two sentences.';
    const audio = (await readAll(kokoro.synthesize(text))).audio;
    const reference = await containerAudio(standIn().container, spoken(sentences(text)), { voice: 'af_heart' });
    expect(pcm(audio).equals(Buffer.concat(reference))).toBe(true);
    expect(audio.map((a) => a.final)).toEqual(audio.map((_, i) => i === audio.length - 1));
    expect((await kokoro.synthesize('Collected into one frame.').collect()).sampleRate).toBe(24000);
  });

  test('a weighted blend passes through: the frames are the container audio of that blend', async () => {
    const voice = 'af_heart(2)+bf_emma(1)';
    const text = 'A blended voice speaks.';
    const audio = (await readAll(make({ voice }).synthesize(text))).audio;
    const [reference] = await containerAudio(standIn().container, spoken(sentences(text)), { voice });
    const [plain] = await containerAudio(standIn().container, spoken(sentences(text)), { voice: 'af_heart' });
    expect(pcm(audio).equals(reference!)).toBe(true);
    expect(reference!.equals(plain!)).toBe(false); // the blend is not just its first voice
    const errors: TtsErrorEvent[] = [];
    const bad = make({ voice: 'af_heart(2)+zz_nobody' });
    bad.on('error', (e) => errors.push(e));
    const stream = bad.stream();
    stream.pushText('Nobody will say this.');
    stream.endInput();
    expect((await readAll(stream)).audio).toEqual([]);
    expect(errors[0]?.error.message).toMatch(
      /voice "zz_nobody" \(in the blend "af_heart\(2\)\+zz_nobody"\) is not one/,
    );
  });

  test("an unknown voice fails the stream with LiveKit's status error, at once and not retried", async () => {
    const kokoro = make({ voice: 'zz_nobody' });
    const routed = standIn().router.instances()[0]!.routed;
    const errors: TtsErrorEvent[] = [];
    kokoro.on('error', (e) => errors.push(e));
    const stream = kokoro.stream();
    stream.pushText('Nobody will say this.');
    stream.endInput();
    const { audio, endOfStream } = await readAll(stream);
    expect(audio).toEqual([]);
    expect(endOfStream).toBe(false);
    expect(errors).toHaveLength(1);
    const [{ error, recoverable }] = errors as [TtsErrorEvent];
    expect(recoverable).toBe(false);
    expect(error).toBeInstanceOf(APIStatusError);
    expect(error).toMatchObject({ statusCode: 400, retryable: false, body: { code: 'unknown_voice' } });
    expect(error.message).toMatch(/voice "zz_nobody" is not one of this endpoint's \d+ voices \(af_/);
    if (mode === 'sagemaker') expect(standIn().router.instances()[0]!.routed).toBe(routed + 1); // one try
  });
});
