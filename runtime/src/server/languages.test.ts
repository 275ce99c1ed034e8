// A turn in each language the container speaks, end to end on loopback: an OpenAI-compatible fake
// LLM (it echoes the prompt and records what it was sent) -> agent server -> Kokoro container on
// the stand-in model (with durations) -> SSE and WebSocket callers, with words events. Japanese
// and Mandarin, unknown languages and a voice that disagrees with the language are refused up front.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { turnEventSchema, type TurnWord } from '@kokoro-speech/protocol';
import { OpenAIProvider } from '../llm/openai.ts';
import type { PipelineEvent } from '../pipeline/turn.ts';
import { startFakeOpenAI, type FakeLlmServer } from '../testing/fake-llm-servers.ts';
import { sentencesOf, startTestContainer, testSessionId, type TestContainer } from '../testing/harness.ts';
import { sseTurn, WsCaller } from '../testing/turn-clients.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from './app.ts';

/** What each language's answer says (echoed), a form its normaliser rewrites, and how it is spoken. */
const TURNS = [
  ['es', '¿Qué tal? La Sra. García pagó 3,50 € a las 12:30. ¡Gracias por llamar!', '3,50 €', '3 euros con 50'],
  ['fr', "Bonjour ! M. Dupont a payé 3,50 € à 12h30. C'est tout pour aujourd'hui.", '3,50 €', '3 euros 50'],
  ['hi', 'नमस्ते, आपका ऑर्डर आज शाम तक पहुँच जाएगा। इसकी कीमत ₹50 है। धन्यवाद।', '₹50', '50 रुपये'],
  ['it', "Buongiorno! Il Dott. Rossi arriva alle 12:30. Grazie per l'attesa.", '12:30', '12 e 30'],
  ['pt', 'Olá! O Dr. Souza pagou R$ 3,50 hoje. Obrigado por ligar.', 'R$ 3,50', '3 reais e 50 centavos'],
] as const;

let container: TestContainer;
let llm: FakeLlmServer;
let agent: AgentServer;

beforeAll(async () => {
  container = await startTestContainer({}, { durations: true });
  llm = await startFakeOpenAI({ chunkDelayMs: 0 });
  agent = await startAgentServer({
    llm: new OpenAIProvider({ baseURL: `${llm.url}/v1`, model: 'm' }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    systemPrompt: 'You are a helpful voice assistant.',
  });
});
afterAll(async () => {
  await agent?.close();
  await llm?.close();
  await container?.close();
});

async function wsTurn(request: object): Promise<PipelineEvent[]> {
  const caller = await WsCaller.connect(agent.wsUrl);
  try {
    caller.send({ type: 'prompt', ...request });
    await caller.until((events) => events.some((e) => e.type === 'done' || e.type === 'error'));
    return caller.turn(0);
  } finally {
    caller.close();
  }
}
const turnOver = async (via: 'sse' | 'ws', request: object) =>
  via === 'sse' ? (await sseTurn(agent.url, request)).events : await wsTurn(request);

/** The system prompt of the LLM request whose last user message was `prompt`. */
function systemPromptSent(prompt: string): string {
  const request = llm.requests.findLast((r) => {
    const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages;
    return JSON.stringify(messages.at(-1)?.content).includes(JSON.stringify(prompt).slice(1, -1));
  });
  const messages = (request!.body as { messages: { role: string; content: unknown }[] }).messages;
  return JSON.stringify(messages.filter((m) => m.role === 'system').map((m) => m.content));
}

const NAMES = { es: 'Spanish', fr: 'French', hi: 'Hindi', it: 'Italian', pt: 'Brazilian Portuguese' };

describe.each(['sse', 'ws'] as const)('over %s', (via) => {
  test.each(TURNS)(
    '%s: spoken with words events, the model told the language',
    async (language, prompt, written, form) => {
      const events = await turnOver(via, { prompt, language, words: true });
      for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
      expect(events.some((e) => e.type === 'error')).toBe(false);
      expect(events.at(-1)).toEqual({ type: 'done' });
      const sentences = sentencesOf(events);
      expect(sentences.map((s) => s.text).join(' ')).toBe(prompt);
      expect(sentences.every((s) => s.bytes > 0)).toBe(true);
      expect(sentences.map((s) => s.spoken).join(' ')).toContain(form);
      // words: the caller's own words, in order, each inside its sentence's text
      for (const s of sentences) {
        const words = events
          .filter((e): e is Extract<PipelineEvent, { type: 'words' }> => e.type === 'words' && e.id === s.id)
          .flatMap((e) => e.words as TurnWord[]);
        expect(words.length).toBeGreaterThan(0);
        for (const w of words) expect(s.text.slice(w.start, w.end)).toBe(w.text);
        expect(words.map((w) => w.start)).toEqual([...words.map((w) => w.start)].sort((a, b) => a - b));
        // every written word is timed, once, in order (the map back through this language's normaliser)
        const letters = (t: string) => t.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
        expect(words.flatMap((w) => letters(w.text))).toEqual(letters(s.text));
      }
      // a form spoken as several words is one word as shown
      const all = events.flatMap((e) => (e.type === 'words' ? e.words.map((w) => w.text) : []));
      expect(all.map((w) => w.replace(/[.!?।]$/u, ''))).toContain(written);
      expect(systemPromptSent(prompt)).toContain(`Always answer in ${NAMES[language]}`);
      expect(systemPromptSent(prompt)).toContain('You are a helpful voice assistant.');
    },
  );
});

test('the voice alone sets the language: ef_dora answers in Spanish; English turns keep the prompt as configured', async () => {
  const es = '¿Cómo está usted? Muy bien, gracias.';
  const events = await turnOver('sse', { prompt: es, voice: 'ef_dora' });
  expect(sentencesOf(events).map((s) => s.text)).toEqual(['¿Cómo está usted?', 'Muy bien, gracias.']);
  expect(systemPromptSent(es)).toContain('Always answer in Spanish');
  const en = 'It costs $3.50, thanks.';
  const english = await turnOver('sse', { prompt: en, voice: 'bf_emma' });
  expect(sentencesOf(english).map((s) => s.spoken)).toEqual(['It costs 3 dollars and 50 cents, thanks.']);
  expect(systemPromptSent(en)).toBe(JSON.stringify(['You are a helpful voice assistant.']));
});

test('a language without a voice speaks with its default voice (ef_dora for es): the same audio', async () => {
  const prompt = 'Buenos días, gracias.';
  const audio = async (request: object) =>
    Buffer.concat((await turnOver('sse', { prompt, ...request })).flatMap((e) => (e.type === 'audio' ? [e.data] : [])));
  const byLanguage = await audio({ language: 'es' });
  expect(byLanguage.length).toBeGreaterThan(0);
  expect(byLanguage.equals(await audio({ voice: 'ef_dora' }))).toBe(true);
  expect(byLanguage.equals(await audio({ voice: 'em_alex' }))).toBe(false);
});

test("a session's turns each get their language's instruction (it follows the voice)", async () => {
  const session_id = testSessionId('languages');
  await turnOver('sse', { prompt: 'Hola, buenos días.', language: 'es', session_id });
  expect(systemPromptSent('Hola, buenos días.')).toContain('Always answer in Spanish');
  await turnOver('sse', { prompt: 'Hello again, good day.', session_id });
  expect(systemPromptSent('Hello again, good day.')).toBe(JSON.stringify(['You are a helpful voice assistant.']));
});

describe.each(['sse', 'ws'] as const)('refused up front over %s', (via) => {
  const refused = async (request: object) => {
    if (via === 'sse') {
      const { status, events } = await sseTurn(agent.url, { prompt: 'Hola.', ...request });
      expect(status).toBe(400);
      return events[0] as { code: string; message: string };
    }
    const events = await wsTurn({ prompt: 'Hola.', ...request });
    expect(events.some((e) => e.type === 'start')).toBe(false);
    return events.find((e) => e.type === 'error') as { code: string; message: string };
  };

  test('a language the model does not speak: 400 naming the supported ones', async () => {
    const error = await refused({ language: 'de' });
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/language: must be one of en, es, fr, hi, it, pt .*got "de"/);
  });

  test.each([
    [{ language: 'ja' }, /language "ja" is Japanese, which this deployment does not speak: .*UniDic/],
    [{ language: 'zh' }, /language "zh" is Mandarin Chinese, .*pypinyin/],
    [{ voice: 'jf_alpha' }, /voice "jf_alpha"'s language is Japanese/],
    [{ voice: 'zm_yunxi', language: 'zh' }, /Mandarin Chinese/],
  ])('%j: 400 unsupported_language, naming why and what is spoken', async (request, why) => {
    const error = await refused(request);
    expect(error.code).toBe('unsupported_language');
    expect(error.message).toMatch(why);
    expect(error.message).toMatch(/Spoken: en \(English\), es \(Spanish\), fr \(French\)/);
  });

  test('a voice and a language that disagree: 400 invalid_request naming both', async () => {
    const error = await refused({ voice: 'af_heart', language: 'es' });
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/voice "af_heart" speaks en \(English\), not language "es".*ef_dora/);
  });
});
