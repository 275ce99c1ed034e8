// A TTS container restart in the middle of an answer, through the real agent server on loopback:
// the container is a real process on the stand-in model, killed (SIGKILL, a crash) after the
// caller's first audio and started again on the same port 2 s later. The agent's TTS session
// re-opens its stream with backoff once the container is back and re-sends what was in flight;
// the caller notices nothing: every sentence once, every sample once, no error.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startLocalSageMakerRouter, type LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import type { TtsTransport } from '../tts/types.ts';
import type { RetryPolicy } from '../tts/retry.ts';
import { startAgentServer, type AgentServer } from './app.ts';
import { ContainerProcess } from '../testing/container-process.ts';
import { sentencesOf } from '../testing/harness.ts';
import { localEndpoint } from '../testing/routed-container.ts';
import { sseTurn } from '../testing/turn-clients.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';

const SENTENCES = Array.from({ length: 30 }, (_, i) => `This is sentence ${i + 1} of the answer, said once.`);
const PROMPT = SENTENCES.join(' ');
const GAP_MS = 2000;

let container: ContainerProcess;
let router: LocalSageMakerRouter;
const agents: AgentServer[] = [];
beforeAll(async () => {
  container = await ContainerProcess.start();
  router = await startLocalSageMakerRouter({ containerUrl: container.url });
}, 60_000);
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
  await router?.close();
  await container?.close();
});

// The default reconnect budget (5 s) covers the 2 s gap plus the stand-in's start-up on an idle
// machine; the test gives it more room, since the start-up is slower on a loaded one.
const retry: RetryPolicy = { budgetMs: 2000, reconnectBudgetMs: 15_000 };

describe.each<[string, () => TtsTransport]>([
  ['the direct WebSocket', () => new WebSocketTransport({ url: container.wsUrl, retry })],
  ['the SageMaker bidi stream (local router)', () => new SageMakerBidiTransport({ ...localEndpoint(router), retry })],
])('a TTS container restart mid-answer, over %s', (_name, transport) => {
  test('is ridden out: every sentence heard exactly once, every sample once, no error', async () => {
    const agent = await startAgentServer({
      llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 2000 }),
      tts: transport(),
    });
    agents.push(agent);
    let restart: Promise<void> | undefined;
    let atKill = 0;
    const seen: PipelineEvent[] = [];
    const { status, events } = await sseTurn(
      agent.url,
      { prompt: PROMPT },
      {
        onEvent: (event) => {
          seen.push(event);
          if (restart || event.type !== 'audio') return;
          atKill = seen.filter((e) => e.type === 'sentence_end').length;
          restart = (async () => {
            await container.kill('SIGKILL');
            await new Promise((resolve) => setTimeout(resolve, GAP_MS)); // down for a while: time passing is the point
            await container.restart();
          })();
        },
      },
    );
    await restart!;
    expect(atKill).toBeLessThan(SENTENCES.length - 10); // killed with most of the answer to come
    expect(status).toBe(200);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done' });
    const sentences = sentencesOf(events);
    // Every piece once, in order (the first sentence is cut early at its comma: the early first piece).
    expect(sentences.map((s) => s.text).join(' ')).toBe(PROMPT);
    for (const s of sentences) {
      expect(s.seqs).toEqual(s.seqs.map((_, i) => i));
      expect(s.bytes / 48).toBeCloseTo(s.duration_ms!, 0); // pcm_s16le at 24 kHz: none lost, none twice
    }
    expect(events.find((e) => e.type === 'metrics')).toMatchObject({ sentences: sentences.length });
  }, 90_000);
});
