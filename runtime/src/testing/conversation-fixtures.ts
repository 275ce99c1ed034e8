// The conversation tests' fixtures (conversation*.test.ts in src/server): an answer the echo model
// holds part-way until its turn is cancelled, so that a caller's cut lands mid-answer however slow
// the machine; a turn asked over SSE, checked against the turn contract; what a session stored.
import { expect } from '@jest/globals';
import type { Message, ModelStreamEvent, StreamOptions } from '@strands-agents/sdk';
import { turnEventSchema } from '@kokoro-speech/protocol';
import { EchoModel, EchoProvider, echoReply } from '../llm/echo.ts';
import type { AgentServer } from '../server/app.ts';
import { testSessionId, textOf } from './harness.ts';
import { sseTurn } from './turn-clients.ts';

export const LONG =
  'This answer is long, so that the caller can cut it short while it plays. ' +
  'The second sentence of it goes on for a while with more words. ' +
  'A third sentence follows it here. And a fourth one ends the answer.';
/**
 * The echo model at 60 tokens/s, except that its answer to LONG stops after `prefix` until the
 * turn is cancelled: the turn is still running when the caller cuts it, however slow the machine
 * (the echo model paces its tokens by the wall clock, so on a machine that falls behind on speech
 * the whole answer could be spoken before the cut arrives).
 */
class HeldEchoModel extends EchoModel {
  readonly #prefix: string;

  constructor(prefix: string) {
    super({ firstTokenMs: 0, tokensPerSecond: 60 });
    this.#prefix = prefix;
  }

  override async *stream(messages: Message[], options: StreamOptions = {}): AsyncIterable<ModelStreamEvent> {
    const held = echoReply(messages).text === LONG;
    let text = '';
    for await (const event of super.stream(messages, options)) {
      if (event.type === 'modelContentBlockDeltaEvent' && event.delta.type === 'textDelta') {
        if (held && text.length >= this.#prefix.length) await untilAborted(options.cancelSignal);
        text += event.delta.text;
      }
      yield event;
    }
  }
}
export class HeldEcho extends EchoProvider {
  override readonly model: EchoModel;

  /** Holds LONG after its first `sentences` sentences and the first word of the next. */
  constructor(sentences: number) {
    super({ firstTokenMs: 0, tokensPerSecond: 60 });
    const parts = LONG.split(/(?<=\. )/);
    this.model = new HeldEchoModel(parts.slice(0, sentences).join('') + parts[sentences]!.split(' ')[0]);
  }
}
const untilAborted = (signal?: AbortSignal) =>
  new Promise<never>((_, reject) => {
    signal?.throwIfAborted();
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** A session's messages as `role: text` lines. */
export const storedText = (messages: readonly Message[]) =>
  messages.map(
    (m) => `${m.role}: ${m.content.map((b) => (b.type === 'textBlock' ? b.text : `[${b.type}]`)).join(' ')}`,
  );
/** What the proportional rule keeps of `text` after `fraction` of its audio: whole words only. */
export const partOf = (text: string, fraction: number) =>
  text
    .slice(0, Math.floor(fraction * text.length))
    .replace(/\S*$/, '')
    .trimEnd();

/** A turn over SSE (in `session` when given), every event valid on the wire: its events and its text. */
export async function ask(server: AgentServer, prompt: string, session?: string, extra: object = {}) {
  const { status, events } = await sseTurn(server.url, {
    prompt,
    ...(session ? { session_id: session } : {}),
    ...extra,
  });
  expect(status).toBe(200);
  for (const e of events) if (e.type !== 'audio') turnEventSchema.parse(e);
  return { events, text: textOf(events) };
}

/** A new session id of the allowed form (tag `test` unless given). */
export const sessionId = (tag = 'test') => testSessionId(tag);
