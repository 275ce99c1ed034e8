// misaki's inline pronunciation from the LLM's answer to the container, end to end on loopback
// (echo LLM -> agent -> Kokoro container on the stand-in model with durations): the markup reaches
// the container intact (it reads it: a bad symbol is its error, naming the symbol), and the
// sentence and its word times show the word itself.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { TurnWord } from '@kokoro-speech/protocol';
import { EchoProvider } from '../llm/echo.ts';
import { startTestContainer, textOf, type TestContainer } from '../testing/harness.ts';
import { sseTurn } from '../testing/turn-clients.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';

let container: TestContainer;
let agent: AgentServer;

beforeAll(async () => {
  container = await startTestContainer({}, { durations: true });
  agent = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
  });
});
afterAll(async () => {
  await agent?.close();
  await container?.close();
});

test('the container speaks the phonemes; the words are the words shown', async () => {
  const { events } = await sseTurn(agent.url, { prompt: 'Meet [Kokoro](/kˈOkəɹO/) today.', words: true });
  expect(events.filter((e) => e.type === 'error')).toEqual([]);
  const words = events.flatMap((e) => (e.type === 'words' ? (e as { words: TurnWord[] }).words : []));
  expect(words.map((w) => w.text)).toEqual(['Meet', 'Kokoro', 'today.']);
  // The text and the sentence as shown are just the words; the words index it; what was spoken kept the markup.
  expect(textOf(events)).toBe('Meet Kokoro today.');
  const sentence = events.find((e) => e.type === 'sentence') as { text: string; spoken: string };
  expect(sentence.text).toBe('Meet Kokoro today.');
  expect(sentence.spoken).toBe('Meet [Kokoro](/kˈOkəɹO/) today.');
  expect(words.map((w) => sentence.text.slice(w.start, w.end))).toEqual(['Meet', 'Kokoro', 'today.']);
});

test('a symbol Kokoro lacks is refused by the container, naming it', async () => {
  const { events } = await sseTurn(agent.url, { prompt: 'Meet [Kokoro](/kˈO☃/) today.' });
  const errors = events.filter((e) => e.type === 'error') as { message?: string }[];
  expect(errors.length).toBeGreaterThan(0);
  expect(JSON.stringify(errors)).toContain('U+2603');
});
