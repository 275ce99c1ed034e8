// The page in Debian's Chromium (playwright-core), against the real local stack on loopback
// (stand-in model, echo LLM): each transport streams text and plays every sample in order, the
// timeline renders, and barge-in silences the old turn at once with nothing stale played after.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../src/testing/chromium.ts';
import { TurnRecorder } from '../src/caller/timeline.ts';
import { streamTurn } from '../src/caller/turn-client.ts';
import { parseLocalOptions } from '../src/stack/options.ts';
import { startLocalStack, type LocalStack } from '../src/stack/stack.ts';
import { agentServerUpstream } from '../src/web-server/upstream.ts';
import { startWebServer, type WebServer } from '../src/web-server/web-server.ts';

const haveChromium = hasChromium();
if (!haveChromium)
  console.warn(`SKIPPED: browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
const suite = haveChromium ? describe : describe.skip;

const PROMPT = 'Streaming starts early. Then more follows at once! Does it all play?';
const SHORT = 'Right. Here it is!';
const LONG =
  'This answer is long on purpose, so that it is still playing when the listener interrupts it. ' +
  'It goes on for a while, one sentence after another, with nothing much to say. '.repeat(6);

interface Report {
  received: { turn: number; id: string; seq: number; samples: number }[];
  played: Record<string, number>;
  playOrder: [number, string, number][];
  rejected: number;
  flushes: number;
  buffered: number;
  sampleRate: number;
}
interface PageTurn {
  n: number;
  textEvents?: number;
  firstTextAt: number | null;
  lastTextAt: number | null;
  doneAt?: number;
  cancelled?: boolean;
  error?: string;
  sentences: {
    id: string;
    index: number;
    text: string;
    samples: number;
    firstAudioAt: number | null;
    /** When the worklet's start of the sentence comes out (the audio clock on the page's), unclamped. */
    heardAt: number | null;
    playStart: number | null;
    playEnd: number | null;
  }[];
  metrics?: { audio_ms: number; sentences: number };
}

// The page's globals as seen inside page.evaluate / waitForFunction callbacks (no DOM lib here).
declare const window: { kokoro: { report(): Promise<Report>; turns(): PageTurn[] } };
declare const document: {
  querySelectorAll(selector: string): { length: number };
  getElementById(id: string): { textContent: string } | null;
  activeElement: { getAttribute(name: string): string | null } | null;
};

let stack: LocalStack;
let browser: Browser;

suite('the page in Chromium', () => {
  beforeAll(async () => {
    stack = await startLocalStack(
      parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo'], {
        ECHO_FIRST_TOKEN_MS: '20',
        ECHO_TOKENS_PER_SECOND: '400',
      }),
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  /** Errors the page logged; each test checks them at its end. */
  const pageErrors = new WeakMap<Page, string[]>();

  async function openPage(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(stack.url);
    await expect(page.locator('#llm').textContent()).resolves.toMatch(/echo/);
    return page;
  }

  /** Polls the page's state from here (waitForFunction does not await async predicates). */
  async function until(page: Page, what: string, check: (r: Report, t: PageTurn[]) => boolean): Promise<void> {
    // Generous: CI runs this beside model-loading suites on 2 cores, and the audio clock only
    // advances when Chromium's audio thread gets the CPU.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const [r, t] = await Promise.all([report(page), turns(page)]);
      if (r && check(r, t)) return;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting until ${what}; worklet: ${JSON.stringify({ played: r?.played, received: r?.received.length })}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const samplesOf = (t: PageTurn | undefined) => t?.sentences.reduce((n, s) => n + s.samples, 0) ?? 0;
  /** Turn n's audio was all received by the page and all played by the worklet. */
  const playedOut = (n: number) => (r: Report, t: PageTurn[]) =>
    t[n - 1]?.doneAt != null && samplesOf(t[n - 1]) > 0 && r.played[String(n)] === samplesOf(t[n - 1]);

  const report = (page: Page) => page.evaluate(() => window.kokoro.report());
  const turns = (page: Page) => page.evaluate(() => window.kokoro.turns());

  async function ask(page: Page, transport: 'sse' | 'ws', prompt: string): Promise<void> {
    await page.locator(`label[for=t-${transport}]`).click();
    await page.locator('#prompt').fill(prompt);
    await page.locator('#prompt').press('Enter');
  }

  for (const transport of ['sse', 'ws'] as const) {
    test(`${transport}: text streams in, every sample reaches the worklet in order and plays, the timeline renders`, async () => {
      // What the agent sends for this prompt, fetched independently by the Node client.
      const expected = new TurnRecorder();
      for await (const e of streamTurn({
        target: new URL(stack.url),
        transport,
        request: { prompt: PROMPT, format: 'pcm_s16le' },
      }).events)
        expected.add(e);
      expect(expected.sentences.length).toBeGreaterThanOrEqual(3);

      const page = await openPage();
      await ask(page, transport, PROMPT);
      await page.waitForFunction(() => document.querySelectorAll('#answer .sentence').length > 0);
      await until(page, 'the turn is done', (_r, t) => t[0]?.doneAt != null);
      // The echo model answers with the prompt: the page shows exactly that text, sentence by sentence.
      expect((await page.locator('#answer').textContent())?.trim()).toBe(PROMPT);
      const [turn] = await turns(page);
      expect(turn!.error).toBeUndefined();
      expect(turn!.sentences.map((s) => s.text)).toEqual(expected.sentences.map((s) => s.text));
      // It streamed in: every delta the agent sends for this answer, one by one, over time.
      expect(expected.textEvents).toBeGreaterThan(5);
      expect(turn!.textEvents).toBe(expected.textEvents);
      expect(turn!.lastTextAt!).toBeGreaterThan(turn!.firstTextAt!);

      // Wait until everything played, then check what the worklet got: each sentence's samples, in order.
      await until(page, 'turn 1 played out', playedOut(1));
      const r = await report(page);
      expect(r.sampleRate).toBe(expected.sampleRate);
      const perSentence = expected.sentences.map((s) => ({ id: s.id, samples: s.audioBytes / 2 }));
      const received = perSentence.map(({ id }) => ({
        id,
        samples: r.received.filter((c) => c.id === id).reduce((n, c) => n + c.samples, 0),
      }));
      expect(received).toEqual(perSentence);
      expect(r.received.every((c) => c.turn === 1)).toBe(true);
      // In order: sentence by sentence, chunks numbered 0, 1, 2... within each.
      const order = r.received.map((c) => `${c.id}#${c.seq}`);
      const sorted = [...r.received]
        .sort(
          (a, b) =>
            perSentence.findIndex((s) => s.id === a.id) - perSentence.findIndex((s) => s.id === b.id) || a.seq - b.seq,
        )
        .map((c) => `${c.id}#${c.seq}`);
      expect(order).toEqual(sorted);
      for (const { id } of perSentence) {
        const seqs = r.received.filter((c) => c.id === id).map((c) => c.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i));
      }
      expect(r.playOrder.map(([, id, seq]) => `${id}#${seq}`)).toEqual(order);
      const totalSamples = perSentence.reduce((n, s) => n + s.samples, 0);
      expect(totalSamples).toBeCloseTo((expected.metrics!.audio_ms * expected.sampleRate!) / 1000, -1);

      // The timeline: a row per sentence (plus the LLM's), with times filled in.
      await page.waitForFunction(() => document.querySelectorAll('#timeline tbody tr').length > 1);
      expect(await page.locator('#timeline tbody tr').count()).toBe(expected.sentences.length + 1);
      await expect(
        page.locator('#timeline .chip', { hasText: 'first sound' }).locator('dd').textContent(),
      ).resolves.toMatch(/^\d+ ms$/);
      await expect(page.locator('#timeline .chip', { hasText: 'via' }).locator('dd').textContent()).resolves.toBe(
        transport === 'ws' ? 'WebSocket' : 'SSE',
      );
      const played = (await turns(page))[0]!.sentences;
      expect(played.every((s) => s.playStart !== null && s.playEnd !== null && s.playEnd >= s.playStart)).toBe(true);
      // Heard after its audio arrived: on the output's clock, not one that runs ahead of it.
      for (const s of played) {
        expect(s.heardAt!).toBeGreaterThanOrEqual(s.firstAudioAt!);
        expect(s.playStart!).toBeGreaterThanOrEqual(s.firstAudioAt!);
      }
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);

    test(`${transport}: barge-in (Stop, then a new prompt) silences the old turn at once; nothing stale plays`, async () => {
      const page = await openPage();
      await ask(page, transport, LONG);
      await until(page, 'turn 1 plays', (r) => (r.played['1'] ?? 0) > 0);
      await page.waitForFunction(() => document.querySelectorAll('#answer .speaking').length === 1);
      await page.locator('#stop').click();
      const atStop = await report(page);
      expect(atStop.buffered).toBe(0);
      expect(await page.locator('#answer .speaking').count()).toBe(0);
      await page.waitForTimeout(300);
      const later = await report(page);
      expect(later.played['1']).toBe(atStop.played['1']); // not one more sample of the stopped turn

      await ask(page, transport, LONG);
      await until(page, 'turn 2 plays', (r) => (r.played['2'] ?? 0) > 0);
      // A new prompt while turn 2 plays interrupts it too.
      await ask(page, transport, SHORT);
      await until(page, 'turn 3 played out', playedOut(3));
      const end = await report(page);
      const all = await turns(page);
      expect(all.map((t) => Boolean(t.cancelled))).toEqual([true, true, false]);
      expect(end.played['1']).toBe(atStop.played['1']);
      // After each barge-in, only the newer turn's audio plays.
      const turnsInPlayOrder = end.playOrder.map(([turn]) => turn);
      expect(turnsInPlayOrder).toEqual([...turnsInPlayOrder].sort((a, b) => a - b));
      expect(end.flushes).toBeGreaterThanOrEqual(2);
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);
  }

  test('the page is labelled and usable from the keyboard, and says what went wrong', async () => {
    const page = await openPage();
    await expect(page.getByLabel('Prompt').count()).resolves.toBe(1);
    await expect(page.locator('#answer').getAttribute('aria-live')).resolves.toBe('polite');
    await expect(page.getByRole('radio', { name: 'WebSocket' }).count()).resolves.toBe(1);
    await page.locator('#prompt').focus();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('transport');
    // A prompt the agent refuses: the page shows the agent's own message, and Stop is off again.
    await ask(page, 'sse', 'x'.repeat(20_001));
    await page.waitForFunction(() => /Error/.test(document.getElementById('status')?.textContent ?? ''));
    await expect(page.locator('#status').textContent()).resolves.toMatch(/400.*prompt/s);
    await expect(page.locator('#stop').isDisabled()).resolves.toBe(true);
    // The timeline says the turn failed, not that it still waits for the LLM.
    await expect(page.locator('#timeline tbody tr.llm td').textContent()).resolves.toBe('no text: the turn failed');
    // The only thing logged is the browser's own note about the 400.
    expect(pageErrors.get(page)).toEqual([expect.stringMatching(/status of 400/)]);
    await page.close();
  });

  describe('a web server bound beyond loopback (--host 0.0.0.0), with the AWS region in its set-up', () => {
    let wide: WebServer;
    beforeAll(async () => {
      wide = await startWebServer({
        upstream: agentServerUpstream(new URL(stack.url)),
        info: { ...stack.info, region: { name: 'eu-west-1', source: 'AWS_REGION' } },
        host: '0.0.0.0',
        port: 0,
      });
    });
    afterAll(() => wide?.close());

    test('opened over plain http from another address: the page says why nothing works, and what to do', async () => {
      // A real insecure context: this machine's own non-loopback address, or else a name that
      // Chromium maps to loopback (any http origin other than localhost is not a secure context).
      const address = Object.values(networkInterfaces())
        .flatMap((list) => list ?? [])
        .find((a) => a.family === 'IPv4' && !a.internal)?.address;
      const mapped =
        address === undefined ? await launchChromium(['--host-resolver-rules=MAP kokoro-lan.test 127.0.0.1']) : null;
      const page = await (mapped ?? browser).newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      try {
        await page.goto(`http://${address ?? 'kokoro-lan.test'}:${wide.port}/`);
        const note = page.locator('#insecure');
        await note.waitFor();
        const text = (await note.textContent())!;
        expect(text).toContain('is not a secure context');
        expect(text).toContain('crypto.randomUUID and AudioWorklet');
        expect(text).toContain(`ssh -L ${wide.port}:127.0.0.1:${wide.port} ${address ?? 'kokoro-lan.test'}`);
        expect(text).toContain('https');
        await expect(page.locator('#speak').isDisabled()).resolves.toBe(true);
        // What the page's own script hit there, which the note explains.
        expect(errors).toEqual([expect.stringMatching(/randomUUID/)]);
      } finally {
        await page.close();
        await mapped?.close();
      }
    }, 60_000);

    test('on loopback the same server is a secure context: no note, and the region is shown', async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${wide.port}/`);
      await expect(page.locator('#region').textContent()).resolves.toBe('eu-west-1');
      await expect(page.locator('#insecure').count()).resolves.toBe(0);
      expect(errors).toEqual([]);
      await page.close();
    });
  });
});
