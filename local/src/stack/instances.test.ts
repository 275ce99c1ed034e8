// `npm start --instances 2`: two Kokoro container processes behind the local router as one
// variant's instances; concurrent turns are spread over both, every turn is spoken whole, and the
// set-up says how many there are.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { TurnRecorder } from '../caller/timeline.ts';
import { streamTurn } from '../caller/turn-client.ts';
import { bannerLines } from './banner.ts';
import { parseLocalOptions } from './options.ts';
import { startLocalStack, type LocalStack } from './stack.ts';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack(
    parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo', '--instances', '2'], {
      ECHO_FIRST_TOKEN_MS: '20',
      ECHO_TOKENS_PER_SECOND: '400',
    }),
  );
}, 90_000);
afterAll(async () => stack?.close());

const PROMPT = 'Two instances share the load. Each turn is spoken whole.';

async function turn(): Promise<TurnRecorder> {
  const rec = new TurnRecorder();
  for await (const event of streamTurn({ target: new URL(stack.url), transport: 'sse', request: { prompt: PROMPT } })
    .events)
    rec.add(event);
  return rec;
}

test('concurrent turns go to both instances (least outstanding requests) and are spoken whole', async () => {
  const turns = await Promise.all([turn(), turn(), turn(), turn()]);
  for (const rec of turns) {
    expect(rec.errors).toEqual([]);
    expect(rec.done).toBe(true);
    expect(rec.sentences).toHaveLength(2);
  }
  const instances = stack.router!.instances();
  expect(instances).toHaveLength(2);
  expect(instances.every((i) => i.healthy && i.routed >= 1)).toBe(true);
  expect(instances.reduce((n, i) => n + i.routed, 0)).toBe(4);
}, 60_000);

test('the set-up counts the instances: the Speech line of the banner and of the page says 2', () => {
  expect(stack.info.model.description).toBe('stand-in model: a tone (--offline), 2 instances');
  expect(bannerLines(stack.info, stack.url)).toContain('  Speech  stand-in model: a tone (--offline), 2 instances');
});
