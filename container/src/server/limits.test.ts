// Limits, overload, vanishing clients and graceful shutdown over real loopback connections. The
// simulated model delay (a generic engine decorator) keeps work queued long enough to see it.
import { expect, test } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '@kokoro-speech/protocol/server';
import type { AudioEndMessage, ErrorMessage } from '@kokoro-speech/protocol';
import { logCapture } from '../testing/test-support.ts';
import { suiteServer } from '../testing/fixture-server.ts';
import { withSimulatedDelay } from '../testing/simulated-delay.ts';
import { aroundRuns } from '../testing/around-runs.ts';

const logs = logCapture();

/** Resolved when a model run of the abandoned request's text starts (it has reached the model). */
const abandonedRun = Promise.withResolvers<void>();
const ABANDONED = 'This request is abandoned before any audio comes back.';

const fixture = suiteServer(() => ({
  logger: createLogger('kokoro-server', 'info', logs.stream),
  wrapEngine: (loaded) =>
    aroundRuns(withSimulatedDelay(loaded, 800, 0), (piece, run) => {
      if (piece.text.includes('abandoned')) abandonedRun.resolve();
      return run();
    }),
  config: { maxQueuedTotal: 3, maxQueuedPerSession: 2, maxSessions: 4, prepWorkers: 1 },
}));

const connect = () => fixture.connect();
const post = (text: string, signal?: AbortSignal) =>
  fetch(`${fixture.server.url}/invocations`, {
    method: 'POST',
    body: JSON.stringify({ text }),
    ...(signal ? { signal } : {}),
  });

/** Waits for a structured log line (the server logs once it has released a session's work). */
async function logLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 500; i++) {
    const line = logs.lines.find(match);
    if (line) return line;
    await sleep(10);
  }
  throw new Error('log line never came');
}

test('per-session queue limit, total queue limit (overloaded on WS, 503 + Retry-After on POST), and a vanished client frees its work at once', async () => {
  const a = await connect();
  a.send({ type: 'text', text: 'One.', id: 'a0' });
  a.send({ type: 'text', text: 'Two.', id: 'a1' });
  a.send({ type: 'text', text: 'Three.', id: 'a2' });
  const perSession = await a.next<ErrorMessage>((m) => m.type === 'error');
  expect(perSession).toMatchObject({ id: 'a2', code: 'overloaded' });
  expect(perSession.message).toMatch(/MAX_QUEUED_PER_SESSION=2/);

  const b = await connect();
  b.send({ type: 'text', text: 'Bee.', id: 'b0' });
  b.send({ type: 'text', text: 'Bee two.', id: 'b1' });
  const total = await b.next<ErrorMessage>((m) => m.type === 'error');
  expect(total).toMatchObject({ id: 'b1', code: 'overloaded' });
  expect(total.message).toMatch(/MAX_QUEUED_TOTAL=3/);

  const refused = await post('Hello.');
  expect(refused.status).toBe(503);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('overloaded');

  // A vanishes mid-utterance: its two utterances are released as soon as the server sees it go.
  a.ws.terminate();
  const closed = await logLine((l) => l.msg === 'session closed' && l.droppedOnClose === 2);
  expect(closed.closeCode).toBe(1006);
  const accepted = await post('Hello again.');
  expect(accepted.status).toBe(200);
  expect((await accepted.arrayBuffer()).byteLength).toBeGreaterThan(44);
  const end = await b.next<AudioEndMessage>((m) => m.type === 'audio_end');
  expect(end.id).toBe('b0');
  // A's utterances never produced audio anywhere: the only ones logged are B's and the POST's.
  expect(a.messages.some((m) => m.type === 'audio_end')).toBe(false);
  b.ws.terminate();
  await logLine((l) => l.msg === 'session closed' && l.texts === 1 && l.utterances === 1);
});

test('an HTTP client that goes away mid-request frees its work', async () => {
  const abort = new AbortController();
  const pending = post(ABANDONED, abort.signal).then(
    () => 'answered',
    (e: Error) => e.name,
  );
  await abandonedRun.promise; // the server is at work on it
  abort.abort();
  expect(await pending).toBe('AbortError');
  const line = await logLine((l) => l.route === 'POST /invocations' && l.aborted === true);
  expect(line.status).toBe(499);
  // Its slot is free again: three utterances fit in the queue.
  const c = await connect();
  for (const id of ['x0', 'x1']) c.send({ type: 'text', text: 'Fine.', id });
  const res = await post('Also fine.');
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  await c.next((m) => m.type === 'audio_end' && m.id === 'x1');
  expect(c.messages.some((m) => m.type === 'error')).toBe(false);
  c.ws.terminate();
});

test('sessions beyond MAX_SESSIONS get overloaded and a 1013 close', async () => {
  for (const c of fixture.clients) c.ws.terminate();
  await logLine(() => logs.lines.filter((l) => l.msg === 'session closed').length === fixture.clients.length);
  const open = await Promise.all([connect(), connect(), connect(), connect()]);
  const ws = new (await import('ws')).default(fixture.server.wsUrl);
  const first = new Promise<string>((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString())));
  const code = await new Promise<number>((resolve) => ws.once('close', resolve));
  expect(JSON.parse(await first)).toMatchObject({ type: 'error', id: null, code: 'overloaded' });
  expect(code).toBe(1013);
  for (const c of open) c.ws.terminate();
});

test('graceful shutdown: /ping turns 503, in-flight audio finishes, then sessions close with 1001', async () => {
  const c = await connect();
  c.send({ type: 'text', text: 'Finish this sentence before you go.', id: 'last' });
  // Messages are handled in order: once this error is back, the text above is queued.
  c.send({ type: 'nonsense' });
  await c.next((m) => m.type === 'error');
  expect(c.messages.some((m) => m.type === 'audio_end')).toBe(false);
  const closing = fixture.server.close();
  const ping = await fetch(`${fixture.server.url}/ping`).then(
    (r) => r.status,
    () => 'refused',
  );
  expect([503, 'refused']).toContain(ping);
  const end = await c.next<AudioEndMessage>((m) => m.type === 'audio_end');
  expect(end.id).toBe('last');
  expect(await c.closed).toBe(1001);
  await closing;
  expect(logs.lines.some((l) => l.msg === 'server stopped')).toBe(true);
});
