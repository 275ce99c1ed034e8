// Two instances behind the local SageMaker router; the one serving a session dies mid-answer. The
// session resumes through its reconnect on the survivor (the router has taken the dead one out of
// the rotation): every utterance arrives complete and exactly once, and later sessions go to the
// survivor only.
import { afterEach, expect, test } from '@jest/globals';
import { fakeAudio, startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
import type { TtsEvent } from './types.ts';
import { localEndpoint } from '../testing/routed-fake.ts';

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

test('an instance dies mid-answer: its session resumes on the survivor, every byte once; new sessions avoid it', async () => {
  const fakes: FakeContainer[] = [];
  for (let i = 0; i < 2; i++) {
    const fake = await startFakeContainer({ frameIntervalMs: 5 }); // slow enough to die mid-utterance
    fakes.push(fake);
    closers.push(() => fake.close());
  }
  const router = await startLocalSageMakerRouter({
    containerUrls: fakes.map((f) => f.url),
    healthCheckIntervalMs: 60_000,
  });
  closers.push(() => router.close());
  const transport = new SageMakerBidiTransport(localEndpoint(router, 'kokoro'));
  const session = await transport.open({});
  closers.push(() => session.close());
  expect(router.instances().map((i) => i.outstanding)).toEqual([1, 0]);
  const texts = ['The first sentence of the answer.', 'A second one follows it.', 'And the third ends it.'];
  const ids = texts.map((t) => session.speak(t));
  const ended = session.end();
  const events: TtsEvent[] = [];
  let killed = false;
  for await (const event of session.events()) {
    events.push(event);
    if (event.type === 'audio' && !killed) {
      killed = true;
      await fakes[0]!.close(); // instance 0 dies with the session's stream on it
    }
  }
  await ended;
  expect(events.filter((e) => e.type === 'reconnected')).toHaveLength(1);
  for (const [i, id] of ids.entries()) {
    const bytes = Buffer.concat(
      events.flatMap((e) => (e.type === 'audio' && e.id === id ? [Buffer.from(e.data)] : [])),
    );
    expect(bytes.equals(fakeAudio(texts[i]!))).toBe(true);
  }
  expect(events.filter((e) => e.type === 'audio_start').map((e) => (e as { id: string }).id)).toEqual(ids);
  const [dead, survivor] = router.instances();
  expect(dead!.healthy).toBe(false);
  expect(survivor!.routed).toBe(1); // the resumed stream
  // A new session goes to the survivor although the dead instance has nothing outstanding.
  const next = await transport.open({});
  next.close();
  expect(router.instances()[1]!.routed).toBe(2);
  expect(router.instances()[0]!.routed).toBe(1);
});
