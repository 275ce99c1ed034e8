// Test harness: a real Kokoro container on loopback running the stand-in model, and helpers to
// read a turn's events. No stubs of our own code: the container, transports and pipeline are real.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '@kokoro-speech/container';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import type { PipelineEvent } from '../pipeline/turn.ts';

export interface TestContainer {
  server: RunningServer;
  close(): Promise<void>;
}

export async function startTestContainer(
  config: Record<string, unknown> = {},
  model: { durations?: boolean } = {},
): Promise<TestContainer> {
  const dir = await mkdtemp(join(tmpdir(), 'kokoro-runtime-'));
  await writeFixtureModel(dir, model);
  const server = await startServer({ modelDir: dir, config: { dtype: 'fp32', ...config } });
  return {
    server,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The answer's text of a turn's events (its `text` deltas, joined). */
export const textOf = (events: PipelineEvent[]): string =>
  events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { delta: string }).delta)
    .join('');

let sessions = 0;
/** A new session id of the allowed form, tagged for the test's logs. */
export const testSessionId = (tag: string): string =>
  `${tag}-session-${String(++sessions).padStart(4, '0')}-0123456789abcdef`;

/** The most of `times` (ms, ascending) that fall in any window of `ms`: frames per second as AgentCore counts them. */
export function maxInWindow(times: number[], ms = 1000): number {
  let best = 0;
  for (let lo = 0, hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= ms) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** Event types in order, with consecutive audio events collapsed into one `audio*` entry. */
export function shape(events: { type: string }[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    const name = e.type === 'audio' ? 'audio*' : e.type;
    if (name === 'audio*' && out.at(-1) === 'audio*') continue;
    if (name === 'text' && out.at(-1) === 'text') continue;
    out.push(name);
  }
  return out;
}

export interface SentenceAudio {
  id: string;
  text: string;
  spoken: string;
  bytes: number;
  seqs: number[];
  duration_ms: number | undefined;
}

/** Groups audio by sentence, checking that audio comes between its sentence and sentence_end. */
export function sentencesOf(events: PipelineEvent[]): SentenceAudio[] {
  const out: SentenceAudio[] = [];
  let open: SentenceAudio | null = null;
  for (const e of events) {
    if (e.type === 'sentence') {
      if (open) throw new Error(`sentence ${e.id} started before ${open.id} ended`);
      open = { id: e.id, text: e.text, spoken: e.spoken, bytes: 0, seqs: [], duration_ms: undefined };
    } else if (e.type === 'audio') {
      if (!open || open.id !== e.id) throw new Error(`audio of ${e.id} outside its sentence`);
      open.bytes += e.data.byteLength;
      open.seqs.push(e.seq);
    } else if (e.type === 'sentence_end') {
      if (!open || open.id !== e.id) throw new Error(`sentence_end of ${e.id} without its sentence`);
      open.duration_ms = e.duration_ms;
      out.push(open);
      open = null;
    }
  }
  if (open) throw new Error(`sentence ${open.id} never ended`);
  return out;
}

/** Resolves once `condition` holds (checked every 10 ms); throws after `ms` (a test then fails naming the wait). */
/** The sentences' texts joined, whitespace folded: the answer when nothing was lost or said twice. */
export const joinedText = (sentences: SentenceAudio[]): string =>
  sentences
    .map((x) => x.text)
    .join(' ')
    .replace(/\s+/g, ' ');

export async function until(condition: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !condition(); await new Promise((r) => setTimeout(r, 10))) {
    if (Date.now() > end) throw new Error(`the condition did not hold within ${ms} ms: ${condition.toString()}`);
  }
}
