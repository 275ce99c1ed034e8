// Kokoro-FastAPI's captioned speech (POST /dev/captioned_speech) against protocol v1's words for
// the same text: the audio of the speech route, and each word as the caller wrote it with its times.
import { describe, expect, test } from '@jest/globals';
import type { WordsMessage } from '@kokoro-speech/protocol';
import { postJson, postSpeech, speechBytes, suiteServer } from '../testing/fixture-server.ts';

const INPUT = 'Hello from Kokoro, streamed as events. Afterwards a second sentence follows the first one.';

// Word timings need the model's durations output (the timestamped Kokoro export).
const fixture = suiteServer(() => ({ model: { durations: true } }));
const post = (path: string, body: unknown) => postJson(fixture.server, path, body);

const bytesOf = (body: Record<string, unknown>) => speechBytes(fixture.server, { input: INPUT, ...body });

interface Captioned {
  audio: string;
  audio_format: string;
  timestamps: { word: string; start_time: number; end_time: number }[] | null;
}

/** Protocol v1's words for the same text (the reference the timestamps must equal). */
async function v1Words(text: string): Promise<WordsMessage['words']> {
  const c = await fixture.connect();
  try {
    c.send({ type: 'config', words: true });
    c.send({ type: 'text', text, id: 'w', ...(text.startsWith('<speak>') && { ssml: true }) });
    c.send({ type: 'end' });
    await c.next((m) => m.type === 'done');
    return c.messages.flatMap((m) => (m.type === 'words' ? m.words : []));
  } finally {
    await c.close();
  }
}

describe('POST /dev/captioned_speech', () => {
  // Inline phonemes and SSML: the words are still the input's own characters.
  const PLAIN = 'I say [tomato](/təmˈɑːtO/) today. Then we eat it.';
  const SSML = '<speak>Hello <sub alias="World Wide Web">WWW</sub> readers.<break time="300ms"/> Bye now.</speak>';

  test('not streamed: the audio of the pcm route and each word, as given, with its times in seconds', async () => {
    for (const input of [PLAIN, SSML]) {
      const res = await post('/dev/captioned_speech', { input, response_format: 'pcm', stream: false });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = (await res.json()) as Captioned;
      expect(body.audio_format).toMatch(/^audio\/pcm/);
      const pcm = await bytesOf({ input, response_format: 'pcm' });
      expect(Buffer.from(body.audio, 'base64').equals(pcm)).toBe(true);
      const reference = await v1Words(input);
      expect(reference.length).toBeGreaterThan(3);
      expect(body.timestamps).toEqual(
        reference.map((w) => ({
          word: input.slice(w.start, w.end),
          start_time: Math.round(w.start_ms) / 1000,
          end_time: Math.round(w.end_ms) / 1000,
        })),
      );
    }
    const plain = ((await (await post('/dev/captioned_speech', { input: PLAIN, stream: false })).json()) as Captioned)
      .timestamps!;
    // The word inside the inline markup, as written (not its phonemes).
    expect(plain.map((t) => t.word)).toEqual(['I', 'say', 'tomato', 'today.', 'Then', 'we', 'eat', 'it.']);
    const ssml = ((await (await post('/dev/captioned_speech', { input: SSML, stream: false })).json()) as Captioned)
      .timestamps!;
    expect(ssml.map((t) => t.word)).toContain('Hello');
    for (const t of ssml) expect(SSML).toContain(t.word);
  });

  test('streamed (the default): JSON lines whose audio and timestamps join into the whole answer', async () => {
    const whole = (await (await post('/dev/captioned_speech', { input: INPUT, stream: false })).json()) as Captioned;
    const res = await post('/dev/captioned_speech', { model: 'kokoro', voice: 'af_heart', input: INPUT });
    expect(res.status).toBe(200);
    const lines = (await res.text()).split('\n');
    expect(lines.pop()).toBe('');
    const parts = lines.map((l) => JSON.parse(l) as Captioned);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts.every((p) => p.audio_format === 'audio/mpeg')).toBe(true); // mp3, the default
    expect(parts.flatMap((p) => p.timestamps)).toEqual(whole.timestamps);
    const joined = Buffer.concat(parts.map((p) => Buffer.from(p.audio, 'base64')));
    expect(joined.equals(Buffer.from(whole.audio, 'base64'))).toBe(true);
    // return_timestamps: false leaves them out; stream_format belongs to the other route.
    const bare = (await (
      await post('/dev/captioned_speech', { input: 'Hi.', stream: false, return_timestamps: false })
    ).json()) as Captioned;
    expect(bare.timestamps).toBeNull();
    const refused = await post('/dev/captioned_speech', { input: 'Hi.', stream_format: 'sse' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { param: string } }).error.param).toBe('stream_format');
  });
});
