// SageMakerBidiTransport through the local router to the fake protocol-v1 peer.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { LOCAL_CREDENTIALS } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startCutProxy } from '../testing/cut-proxy.ts';
import { fakeAudio } from '@kokoro-speech/protocol/testing';
import type { FakeContainer } from '@kokoro-speech/protocol/testing';
import { routedFakeTarget, startRoutedFake } from '../testing/routed-fake.ts';
import { collect, SENTENCES, transportSuite } from '../testing/transport-suite.ts';
import { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
import { TtsTransportError } from './types.ts';

const options = (endpoint: string, secretAccessKey = LOCAL_CREDENTIALS.secretAccessKey, maxPartBytes?: number) =>
  new SageMakerBidiTransport({
    endpointName: 'kokoro',
    region: 'eu-west-1',
    endpoint,
    credentials: { ...LOCAL_CREDENTIALS, secretAccessKey },
    ...(maxPartBytes && { maxPartBytes }),
  });

transportSuite('sagemaker-bidi (local router, fake peer)', () => routedFakeTarget((endpoint) => options(endpoint)));

describe('SageMakerBidiTransport specifics', () => {
  let fake: FakeContainer;
  let router: LocalSageMakerRouter;
  let close: () => Promise<void>;
  beforeAll(async () => ({ fake, router, close } = await startRoutedFake()));
  afterAll(() => close());

  test('a wrong secret fails open() with an unauthorized TtsTransportError', async () => {
    await expect(options(router.url, 'wrong').open({})).rejects.toMatchObject({
      name: 'TtsTransportError',
      code: 'unauthorized',
      retryable: false,
    });
  });

  test('long messages travel as PARTIAL..COMPLETE parts and arrive as one message', async () => {
    fake.received.length = 0;
    const session = await options(router.url, undefined, 16).open({ voice: 'af_heart' });
    const text = 'A sentence long enough to need several parts.';
    session.speak(text, 'long');
    const collecting = collect(session);
    await session.end();
    const collected = await collecting;
    expect(collected.utterances.get('long')?.samples).toBe(fakeAudio(text).length / 2);
    expect(fake.received.map(({ message }) => message)).toEqual([
      { type: 'config', voice: 'af_heart' },
      { type: 'text', text, id: 'long' },
      { type: 'end' },
    ]);
    session.close();
  });

  test('a ModelStreamError (container closed) mid-answer is recovered by reconnecting', async () => {
    const session = await options(router.url).open({});
    const ids = SENTENCES.map((text) => session.speak(text));
    let closed = false;
    const collecting = collect(session, (event) => {
      if (!closed && event.type === 'audio') {
        closed = true;
        fake.closeSessions(1011);
      }
    });
    await session.end();
    const collected = await collecting;
    expect(collected.reconnects).toHaveLength(1);
    expect(collected.ends.filter((id, i, all) => all.lastIndexOf(id) === i)).toEqual(ids);
    session.close();
  });

  test('streams ended by the lifetime cap mid-answer lose no sentence and repeat none (the resume path)', async () => {
    // A slow container (20 ms between audio frames: ~60 ms a sentence, ~1.2 s for the answer) and
    // a 400 ms cap: the answer spans several streams, and every cap falls mid-answer.
    const peer = await startRoutedFake('kokoro', {
      router: { maxStreamLifetimeMs: 400 },
      container: { frameIntervalMs: 20 },
    });
    try {
      const session = await options(peer.router.url).open({ format: 'pcm_s16le', sample_rate: 24000 });
      const ids = SENTENCES.map((text, i) => session.speak(text, `l${i}`));
      const collecting = collect(session);
      await session.end();
      const collected = await collecting;
      session.close();
      const streams = peer.fake.received.filter(
        ({ message }) => (message as { type: string }).type === 'config',
      ).length;
      expect(streams).toBeGreaterThan(1);
      expect(collected.reconnects).toHaveLength(streams - 1); // each cap was met and resumed from
      expect(collected.errors).toEqual([]);
      expect(collected.ends).toEqual(ids); // every sentence, once, in order
      SENTENCES.forEach((text, i) => {
        const utterance = collected.utterances.get(ids[i]!)!;
        expect(utterance.starts).toBe(1);
        expect(utterance.samples).toBe(fakeAudio(text).length / 2);
        expect(utterance.bytes).toBe(fakeAudio(text).length); // spliced: no byte lost or repeated
      });
    } finally {
      await peer.close();
    }
  });

  test('an unreachable runtime URL fails open() with connection_lost', async () => {
    const proxy = await startCutProxy(router.port);
    proxy.refuseNew(true);
    await expect(options(`http://127.0.0.1:${proxy.port}`).open({})).rejects.toBeInstanceOf(TtsTransportError);
    await proxy.close();
  });

  test('without explicit credentials the AWS default provider chain is used (here: the environment)', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
    try {
      const session = await new SageMakerBidiTransport({
        endpointName: 'kokoro',
        region: 'eu-west-1',
        endpoint: router.url,
      }).open({});
      await expect(session.ready).resolves.toMatchObject({ voices: expect.arrayContaining(['af_heart']) });
      session.close();
    } finally {
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    }
  });
});
