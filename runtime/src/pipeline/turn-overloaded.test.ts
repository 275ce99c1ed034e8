// A turn whose TTS session is refused: retried within the budget it completes as if nothing
// happened; past the budget (here zero) it fails with a clear `tts_overloaded` error event.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { EchoProvider } from '../llm/echo.ts';
import { startRefusingGate, type RefusingGate } from '../testing/refusing-gate.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { runTurn, type PipelineEvent } from './turn.ts';

let fake: FakeContainer;
let gate: RefusingGate;
beforeAll(async () => {
  fake = await startFakeContainer();
  gate = await startRefusingGate(Number(new URL(fake.url).port));
});
afterAll(async () => {
  await gate.close();
  await fake.close();
});

async function turn(budgetMs: number) {
  const events: PipelineEvent[] = [];
  const result = await runTurn(
    {
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 5000 }),
      tts: new WebSocketTransport({ url: `ws://127.0.0.1:${gate.port}`, retry: { budgetMs } }),
      defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
    },
    { request: { prompt: 'Hello there. How are you today?' }, emit: (e) => events.push(e) },
  );
  return { events, result };
}

test('refused twice, retried within the budget: the turn completes and speaks every sentence', async () => {
  gate.refuseNext(2);
  const { events, result } = await turn(5000);
  expect(result.outcome).toBe('completed');
  expect(events.filter((e) => e.type === 'sentence')).toHaveLength(2);
  expect(events.some((e) => e.type === 'error')).toBe(false);
});

test('refused with a retry budget of zero: the turn fails at once with tts_overloaded', async () => {
  gate.refuseAll(true);
  const { events, result } = await turn(0);
  gate.refuseAll(false);
  expect(result.outcome).toBe('failed');
  expect(result.error).toMatchObject({ code: 'tts_overloaded' });
  expect(result.error!.message).toMatch(/cannot open a TTS session: the TTS server refused the session 1 time/);
  expect(events.map((e) => e.type).slice(-3)).toEqual(['metrics', 'error', 'done']);
  expect(events.some((e) => e.type === 'sentence')).toBe(false);
});
