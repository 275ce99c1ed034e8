// SageMakerResponseStreamTransport through the local router to the fake peer (whose POST answer is
// written in odd-sized chunks, so re-framing at sample boundaries is exercised).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startCutProxy } from '../testing/cut-proxy.ts';
import { fakeAudio } from '@kokoro-speech/protocol/testing';
import type { FakeContainer } from '@kokoro-speech/protocol/testing';
import { routedFakeTarget, startRoutedFake } from '../testing/routed-fake.ts';
import { collect, SENTENCES, transportSuite } from '../testing/transport-suite.ts';
import { SageMakerResponseStreamTransport } from './response-stream-transport.ts';

const transport = (
  endpoint: string,
  secretAccessKey = LOCAL_CREDENTIALS.secretAccessKey,
  maxConcurrentCalls?: number,
) =>
  new SageMakerResponseStreamTransport({
    endpointName: 'kokoro',
    region: 'us-west-2',
    endpoint,
    credentials: { ...LOCAL_CREDENTIALS, secretAccessKey },
    ...(maxConcurrentCalls && { maxConcurrentCalls }),
  });

transportSuite('sagemaker-response-stream (local router, fake peer)', () =>
  routedFakeTarget((endpoint) => transport(endpoint)),
);

describe('SageMakerResponseStreamTransport specifics', () => {
  let fake: FakeContainer;
  let router: LocalSageMakerRouter;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fake, router, close } = await startRoutedFake()));
  afterAll(() => close());

  test('audio is byte-exact and in order whatever the concurrency, and counted in samples here', async () => {
    for (const calls of [1, 6]) {
      const session = await transport(router.url, undefined, calls).open({ sample_rate: 16000 });
      const texts = SENTENCES.slice(0, 8);
      texts.forEach((text, i) => session.speak(text, `c${i}`));
      const audio = new Map<string, Buffer[]>();
      const ends: Array<{ id: string; samples: number; duration_ms: number }> = [];
      const collecting = (async () => {
        for await (const event of session.events()) {
          if (event.type === 'audio') audio.set(event.id, [...(audio.get(event.id) ?? []), Buffer.from(event.data)]);
          if (event.type === 'audio_end') ends.push(event);
          if (event.type === 'audio') expect(event.data.byteLength % 2).toBe(0);
        }
      })();
      await session.end();
      await collecting;
      expect(ends.map((e) => e.id)).toEqual(texts.map((_, i) => `c${i}`));
      texts.forEach((text, i) => {
        const expected = fakeAudio(text, 16000);
        expect(Buffer.concat(audio.get(`c${i}`)!)).toEqual(expected);
        expect(ends[i]).toMatchObject({
          samples: expected.length / 2,
          duration_ms: (expected.length / 2 / 16000) * 1000,
        });
      });
      session.close();
    }
  });

  test('refuses wav (a header per utterance is not a stream) and a wrong secret ends the session as unauthorized', async () => {
    await expect(transport(router.url).open({ format: 'wav' })).rejects.toThrow(/pcm_s16le, mulaw or alaw/);
    const session = await transport(router.url, 'wrong').open({});
    session.speak('Hello.');
    await expect(collect(session)).rejects.toMatchObject({ name: 'TtsTransportError', code: 'unauthorized' });
  });

  test('cancel aborts the calls in flight; nothing of them arrives afterwards', async () => {
    const proxy = await startCutProxy(router.port);
    const session = await transport(`http://127.0.0.1:${proxy.port}`).open({});
    const ids = SENTENCES.slice(0, 6).map((text) => session.speak(text));
    const dropped = await session.cancel();
    expect(dropped).toEqual(ids);
    session.speak('Only this.', 'only');
    const collecting = collect(session);
    await session.end();
    expect((await collecting).ends).toEqual(['only']);
    session.close();
    await proxy.close();
  });

  test('a container body that breaks off arrives as ModelStreamError: retried once, then a TtsTransportError', async () => {
    let calls = 0;
    const broken = createServer((req, res) => {
      calls++;
      req.resume();
      res.writeHead(200, { 'content-type': 'audio/L16;rate=24000;channels=1' });
      res.write(Buffer.alloc(1000));
      setTimeout(() => res.destroy(), 10);
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const brokenRouter = await startLocalSageMakerRouter({
      containerUrl: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`,
    });
    const session = await transport(brokenRouter.url).open({});
    session.speak('Never whole.', 'w');
    const events: string[] = [];
    await expect(collect(session, (event) => void events.push(event.type))).rejects.toMatchObject({
      name: 'TtsTransportError',
      code: 'model_stream_error',
    });
    expect(calls).toBe(2);
    expect(events).toContain('reconnected');
    await brokenRouter.close();
    await new Promise((resolve) => broken.close(resolve));
  });
});
