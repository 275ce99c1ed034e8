// Admission on the SSE route: a turn takes its slot before the event stream's 200 and keeps it, so
// a busy agent answers 503 `busy` (with Retry-After), never an `internal` error inside a 200. The
// race that used to do that: a conversation's request admitted, then waiting on its session store,
// while another turn took the last slot; its 200 was sent, and its turn then refused.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Storage } from '@strands-agents/sdk';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { startTestContainer, testSessionId, type TestContainer } from '../testing/harness.ts';
import { sseTurn } from '../testing/turn-clients.ts';

/** A session store in memory whose reads wait while the test holds them. */
class HeldStore implements Storage {
  readonly #data = new Map<string, Uint8Array>();
  #held: PromiseWithResolvers<void> | null = Promise.withResolvers<void>();
  readonly reading = Promise.withResolvers<void>();
  release(): void {
    this.#held?.resolve();
    this.#held = null;
  }
  async read(key: string): Promise<Uint8Array | null> {
    this.reading.resolve();
    await this.#held?.promise;
    return this.#data.get(key) ?? null;
  }
  async write(key: string, data: Uint8Array): Promise<void> {
    this.#data.set(key, data);
  }
  async delete(key: string): Promise<void> {
    this.#data.delete(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.#data.keys()].filter((k) => k.startsWith(prefix));
  }
}

let container: TestContainer;
let server: AgentServer;
const store = new HeldStore();
beforeAll(async () => {
  container = await startTestContainer();
  server = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    limits: { maxConcurrentTurns: 1 },
    sessions: { storage: store },
  });
});
afterAll(async () => {
  await server?.close();
  await container?.close();
});

test('one slot: a conversation admitted while its store answers keeps it; the turn asking meanwhile is a 503 busy', async () => {
  const conversation = sseTurn(server.url, { prompt: 'One sentence to say.', session_id: testSessionId('admit') });
  await store.reading.promise; // admitted, waiting on its session's owner record
  const meanwhile = await fetch(`${server.url}/invocations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Me too.' }),
  });
  expect(meanwhile.status).toBe(503);
  expect(meanwhile.headers.get('retry-after')).toBe('1');
  expect(await meanwhile.json()).toEqual({
    error: { code: 'busy', message: expect.stringMatching(/agent is busy: 1 turns running \(limit 1\)/) },
  });
  store.release();
  const { status, events } = await conversation;
  expect(status).toBe(200);
  expect(events.some((e) => e.type === 'error')).toBe(false);
  expect(events.at(-1)).toEqual({ type: 'done' });
  // The slot is free again once the turn is over.
  const again = await sseTurn(server.url, { prompt: 'Again.' });
  expect(again.events.at(-1)).toEqual({ type: 'done' });
});
