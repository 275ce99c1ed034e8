// The trace parent of each utterance on protocol v1 `text`: sent only to a server whose ready says
// `tracing: true` (an older one refuses unknown fields), and sent again with the text after a
// reconnect.
import { afterEach, expect, test } from '@jest/globals';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { WebSocketTransport } from './websocket-transport.ts';
import type { TtsSession } from './types.ts';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
let fake: FakeContainer | undefined;
let session: TtsSession | undefined;
afterEach(async () => {
  session?.close();
  await fake?.close();
});

async function speakTwo(tracing: boolean) {
  fake = await startFakeContainer({ tracing });
  session = await new WebSocketTransport({ url: fake.wsUrl }).open({ voice: 'af_heart' });
  session.speak('Traced.', 's0', { traceparent: PARENT });
  session.speak('Not traced.', 's1');
  await session.end();
  return fake.received
    .map((r) => r.message as { type: string; id?: string; traceparent?: string })
    .filter((m) => m.type === 'text');
}

test('a server whose ready says tracing gets the traceparent of the utterances that have one', async () => {
  expect(await speakTwo(true)).toEqual([
    { type: 'text', text: 'Traced.', id: 's0', traceparent: PARENT },
    { type: 'text', text: 'Not traced.', id: 's1' },
  ]);
});

test('an older server (no tracing in its ready) never gets the field', async () => {
  expect(await speakTwo(false)).toEqual([
    { type: 'text', text: 'Traced.', id: 's0' },
    { type: 'text', text: 'Not traced.', id: 's1' },
  ]);
});

test('after a reconnect the utterance is sent again with its traceparent', async () => {
  fake = await startFakeContainer({ tracing: true, frameIntervalMs: 20 });
  session = await new WebSocketTransport({ url: fake.wsUrl }).open({ voice: 'af_heart' });
  session.speak('A sentence long enough to be cut off in the middle of its audio.', 's0', { traceparent: PARENT });
  const events = session.events()[Symbol.asyncIterator]();
  for (let e = await events.next(); !e.done && e.value.type !== 'audio'; e = await events.next());
  fake.closeSessions();
  const ended = session.end();
  for (let e = await events.next(); !e.done; e = await events.next());
  await ended;
  const texts = fake.received
    .map((r) => r.message as { type: string; id?: string; traceparent?: string })
    .filter((m) => m.type === 'text');
  expect(texts.length).toBe(2); // the first stream's, and the one re-sent on the new stream
  for (const t of texts) expect(t).toMatchObject({ id: 's0', traceparent: PARENT });
});
