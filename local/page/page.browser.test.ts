// The page in Debian's Chromium (playwright-core), against the real local stack on loopback
// (stand-in model, echo LLM): each transport streams text and plays every sample in order, the
// timeline renders, and barge-in silences the old turn at once with nothing stale played after.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../src/testing/chromium.ts';
import { MAX_PROMPT_CHARS } from '@kokoro-speech/protocol';
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
interface PageWord {
  text: string;
  start: number;
  end: number;
  start_ms: number;
  end_ms: number;
}
interface PageTurn {
  n: number;
  playedMs: number | null;
  heardText: string | null;
  sampleRate?: number;
  reported?: string;
  sentPreviousPlayedMs?: number;
  tools: { name: string; startAt: number; endAt: number | null; error: string | null }[];
  format?: string;
  highlights: { id: string; word: number; text: string; start_ms: number; end_ms: number; atMs: number; at: number }[];
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
    words?: PageWord[];
    wordsEstimated?: boolean;
  }[];
  metrics?: { audio_ms: number; sentences: number };
}

// The page's globals as seen inside page.evaluate / waitForFunction callbacks (no DOM lib here).
declare const window: {
  kokoro: { report(): Promise<Report>; turns(): PageTurn[]; session(): string; settled(): Promise<boolean> };
};
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
      parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo', '--tools', 'calculator'], {
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
    // The set-up comes from /api/info after the page loaded: wait for it (reading at once raced it).
    await page.waitForFunction(() => document.getElementById('llm')?.textContent !== '…');
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

  async function ask(page: Page, transport: 'sse' | 'ws', prompt: string, format?: 'opus' | 'pcm'): Promise<void> {
    await page.locator(`label[for=t-${transport}]`).click();
    if (format) await page.locator(`label[for=f-${format}]`).click();
    await page.locator('#prompt').fill(prompt);
    await page.locator('#prompt').press('Enter');
  }

  for (const [transport, format] of [
    ['sse', 'opus'],
    ['ws', 'opus'],
    ['sse', 'pcm'],
    ['ws', 'pcm'],
  ] as const) {
    test(`${transport} ${format}: text streams in, every sample reaches the worklet in order and plays, the timeline renders`, async () => {
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
      await ask(page, transport, PROMPT, format);
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
      // The format asked for is the one that came; Opus decoded to exactly the PCM samples (above), gap-free.
      expect((await turns(page))[0]!.format).toBe(format === 'opus' ? 'opus' : 'pcm_s16le');
      // Heard after its audio arrived: on the output's clock, not one that runs ahead of it.
      for (const s of played) {
        expect(s.heardAt!).toBeGreaterThanOrEqual(s.firstAudioAt!);
        expect(s.playStart!).toBeGreaterThanOrEqual(s.firstAudioAt!);
      }
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);
  }

  for (const transport of ['sse', 'ws'] as const) {
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

  const answerText = async (page: Page) => ((await page.locator('#answer').textContent()) ?? '').trim();
  const untilDone = (page: Page, n: number) => until(page, `turn ${n} is done`, (_r, t) => t[n - 1]?.doneAt != null);

  for (const transport of ['sse', 'ws'] as const) {
    test(`${transport}: a conversation: turns stack, the agent remembers, the session is shown, New conversation forgets`, async () => {
      const page = await openPage();
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/invocations')) sent.push(r.headers()['x-session-id'] ?? '');
      });
      page.on('websocket', (ws) => sent.push(new URL(ws.url()).searchParams.get('session') ?? ''));
      const session = await page.evaluate(() => window.kokoro.session());
      expect(session).toMatch(/^page-[0-9a-f-]{36}$/);
      await expect(page.locator('#session').textContent()).resolves.toBe(session);

      await ask(page, transport, 'My name is Ada.');
      await until(page, 'turn 1 played out', playedOut(1));
      await ask(page, transport, 'What did I say before?');
      await untilDone(page, 2);
      expect(await answerText(page)).toBe('You said: My name is Ada.');
      // The first turn is stacked above: the prompt, then the answer.
      await expect(page.locator('#conversation li.turn').count()).resolves.toBe(1);
      await expect(page.locator('#conversation li.turn .you').textContent()).resolves.toBe('My name is Ada.');
      await expect(page.locator('#conversation li.turn .answer').textContent()).resolves.toBe('My name is Ada.');
      await expect(page.locator('#you').textContent()).resolves.toBe('What did I say before?');
      expect(new Set(sent)).toEqual(new Set([session]));

      await page.locator('#new-conversation').click();
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'New conversation.');
      const fresh = await page.evaluate(() => window.kokoro.session());
      expect(fresh).not.toBe(session);
      await expect(page.locator('#session').textContent()).resolves.toBe(fresh);
      await expect(page.locator('#conversation li').count()).resolves.toBe(0);
      await ask(page, transport, 'What did I say before?');
      await untilDone(page, 3);
      expect(await answerText(page)).toBe('You have not said anything before.');
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);

    // The page asks for Opus by default; PCM once as well (played_ms counts samples at the stream's rate in both).
    for (const [how, format] of [
      ['Stop', undefined],
      ['a new prompt', undefined],
      ['Stop', 'pcm'],
    ] as const) {
      test(`${transport}${format ? ` ${format}` : ''}: an interruption by ${how} reports the worklet's playback position; the agent keeps what was heard`, async () => {
        const page = await openPage();
        const cancels: { type: string; played_ms?: number }[] = [];
        const bodies: { previous_played_ms?: number; prompt: string }[] = [];
        page.on('websocket', (ws) =>
          ws.on('framesent', (f) => {
            const data = JSON.parse(String(f.payload)) as { type: string; played_ms?: number };
            if (data.type === 'cancel') cancels.push(data);
          }),
        );
        page.on('request', (r) => {
          if (r.url().includes('/api/invocations')) bodies.push(JSON.parse(r.postData() ?? '{}'));
        });
        await ask(page, transport, LONG, format);
        // Well into the answer: more than a second of its audio played.
        await until(page, 'turn 1 plays for a second', (r) => (r.played['1'] ?? 0) > r.sampleRate * 1.2);
        if (how === 'Stop') await page.locator('#stop').click();
        else await ask(page, transport, 'What did you say before?');
        await page.evaluate(() => window.kokoro.settled());
        const [first] = await turns(page);
        const r = await report(page);
        // played_ms is the worklet's own count of the turn's samples played, from its first one.
        expect(first!.playedMs).toBe((r.played['1']! / r.sampleRate) * 1000);
        expect(first!.playedMs!).toBeGreaterThan(1200);
        expect(first!.format).toBe(format === 'pcm' ? 'pcm_s16le' : 'opus');
        if (transport === 'ws') {
          expect(first!.reported).toBe('cancel');
          expect(cancels).toEqual([{ type: 'cancel', played_ms: first!.playedMs }]);
        } else {
          expect(first!.reported).toBe('next turn');
        }
        if (how === 'Stop') await ask(page, transport, 'What did you say before?');
        await untilDone(page, 2);
        if (transport === 'sse') expect(bodies[1]!.previous_played_ms).toBeCloseTo(first!.playedMs!, 1);
        // The agent's history holds what the page marks as heard: the echo model says it back.
        const heard = first!.heardText!;
        expect(heard.length).toBeGreaterThan(10);
        expect(LONG.startsWith(heard)).toBe(true);
        expect(heard.length).toBeLessThan(LONG.length);
        const stored = (await answerText(page)).replace(/^I said: /, '');
        expect(stored).toBe(heard);
        await expect(page.locator('#conversation li.turn .answer .unheard').count()).resolves.toBeGreaterThan(0);
        console.log(
          `barge-in (${transport}, ${first!.format}, ${how}): played ${first!.playedMs!.toFixed(1)} ms; page marks ${heard.length} characters heard, ` +
            `the agent stored ${stored.length} (of ${LONG.length} written): ${stored.length === heard.length ? 'equal' : 'differ'}`,
        );
        expect(pageErrors.get(page)).toEqual([]);
        await page.close();
      }, 180_000);
    }
  }

  test('tool calls show on the timeline and under the answer', async () => {
    const page = await openPage();
    await ask(page, 'ws', 'Let me work it out.<tool name="calculate">{"expression": "6 * 7"}</tool> It is {result}.');
    await untilDone(page, 1);
    expect(await answerText(page)).toBe('Let me work it out. It is 42.');
    const [turn] = await turns(page);
    expect(turn!.tools).toEqual([
      {
        id: expect.any(String),
        name: 'calculate',
        startAt: expect.any(Number),
        endAt: expect.any(Number),
        duration_ms: expect.any(Number),
        error: null,
      },
    ]);
    await page.waitForFunction(() => document.querySelectorAll('#timeline tr.tool').length === 1);
    await expect(page.locator('#timeline tr.tool td').textContent()).resolves.toMatch(
      /^calculate: ran from \d+ ms to \d+ ms$/,
    );
    await expect(page.locator('#turn-notes li.tool').textContent()).resolves.toMatch(/^tool calculate: \d+ ms$/);
    expect(pageErrors.get(page)).toEqual([]);
    await page.close();
  });

  for (const format of ['opus', 'pcm'] as const) {
    test(`${format}: the word being spoken is highlighted from the playback position, not from arrival`, async () => {
      const page = await openPage();
      await ask(page, 'ws', PROMPT, format);
      await until(page, 'turn 1 played out', playedOut(1));
      const [turn] = await turns(page);
      // Every sentence got its words (exact: the offline stand-in has a durations output), as shown.
      for (const s of turn!.sentences) {
        expect(s.words!.map((w) => w.text)).toEqual(s.text.trim().split(/\s+/));
        expect(s.wordsEstimated).toBe(false);
      }
      const words = turn!.sentences.flatMap((s) => s.words!);
      expect(await page.locator('#answer .word').count()).toBe(words.length);
      // Highlighted in order, each while the worklet's position was inside it, and never before its
      // sentence started playing (its words arrived long before: all audio is in within a second).
      const h = turn!.highlights;
      expect(h.length).toBeGreaterThanOrEqual(words.length / 2);
      for (let i = 1; i < h.length; i++) expect(h[i]!.start_ms).toBeGreaterThanOrEqual(h[i - 1]!.start_ms);
      for (const x of h) {
        expect(x.atMs).toBeGreaterThanOrEqual(x.start_ms);
        expect(x.atMs).toBeLessThan(x.end_ms);
        const s = turn!.sentences.find((y) => y.id === x.id)!;
        expect(x.at).toBeGreaterThanOrEqual(s.playStart! - 1);
      }
      const last = turn!.sentences.at(-1)!;
      expect(h.some((x) => x.id === last.id)).toBe(true);
      expect(await page.locator('#answer .word.now').count()).toBe(0); // cleared when done
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);
  }

  test('a browser that cannot decode Opus: the page says so, asks for PCM, and plays it all', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(() => {
      const g = globalThis as unknown as { AudioDecoder?: { isConfigSupported: unknown } };
      if (g.AudioDecoder) g.AudioDecoder.isConfigSupported = async () => ({ supported: false });
    });
    await page.goto(stack.url);
    await page.waitForFunction(() => /cannot decode Opus/.test(document.getElementById('notice')?.textContent ?? ''));
    await expect(page.locator('#f-opus').isDisabled()).resolves.toBe(true);
    await expect(page.locator('#f-pcm').isChecked()).resolves.toBe(true);
    await page.locator('#prompt').fill(SHORT);
    await page.locator('#prompt').press('Enter');
    await until(page, 'turn 1 played out', playedOut(1));
    expect((await turns(page))[0]!.format).toBe('pcm_s16le');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  test("the voice picker lists the agent's voices by language, and the chosen one is asked for", async () => {
    const page = await openPage();
    await page.waitForFunction(() => document.querySelectorAll('#voice option').length > 10);
    await expect(page.locator('#voice').inputValue()).resolves.toBe('af_heart');
    await expect(page.locator('#voice option[value=af_heart]').textContent()).resolves.toMatch(
      /^Heart \(female, grade A/,
    );
    await expect(
      page.locator('#voice optgroup').evaluateAll((gs) => gs.map((g) => g.getAttribute('label'))),
    ).resolves.toEqual([
      'American English',
      'British English',
      'Spanish',
      'French',
      'Hindi',
      'Italian',
      'Japanese',
      'Brazilian Portuguese',
      'Mandarin Chinese',
    ]);
    // not spoken here: listed, disabled, with the reason
    await expect(page.locator('#voice option[value=jf_alpha]').isDisabled()).resolves.toBe(true);
    await expect(page.locator('#voice option[value=jf_alpha]').getAttribute('title')).resolves.toMatch(/UniDic/);
    await page.getByLabel('Voice').selectOption('bf_emma');
    const request = page.waitForRequest((r) => r.url().endsWith('/api/invocations') && r.method() === 'POST');
    await ask(page, 'sse', SHORT);
    expect(JSON.parse((await request).postData()!)).toMatchObject({
      prompt: SHORT,
      voice: 'bf_emma',
      language: 'en',
      words: true,
    });
    await until(page, 'turn 1 played out', playedOut(1));
    expect((await turns(page))[0]!.error).toBeUndefined();
    // a Spanish voice: the turn asks for Spanish and is heard
    await page.getByLabel('Voice').selectOption('ef_dora');
    const spanish = page.waitForRequest((r) => r.url().endsWith('/api/invocations') && r.method() === 'POST');
    await ask(page, 'sse', 'Hola, ¿qué tal? Muy bien, gracias.');
    expect(JSON.parse((await spanish).postData()!)).toMatchObject({ voice: 'ef_dora', language: 'es' });
    await until(page, 'turn 2 played out', playedOut(2));
    expect((await turns(page))[1]!.error).toBeUndefined();
    expect(pageErrors.get(page)).toEqual([]);
    await page.close();
  }, 180_000);

  test('the page is labelled and usable from the keyboard, and says what went wrong', async () => {
    const page = await openPage();
    await expect(page.getByLabel('Prompt').count()).resolves.toBe(1);
    await expect(page.locator('#answer').getAttribute('aria-live')).resolves.toBe('polite');
    await expect(page.getByRole('radio', { name: 'WebSocket' }).count()).resolves.toBe(1);
    await page.locator('#prompt').focus();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('name'))).resolves.toBe('transport');
    // The agent's limit on a prompt (the turn schema's): the box takes no more, and the hint says so.
    const box = page.locator('#prompt');
    await expect(box.getAttribute('maxlength')).resolves.toBe(String(MAX_PROMPT_CHARS));
    await expect(page.locator('#hint').textContent()).resolves.toContain(
      `Up to ${MAX_PROMPT_CHARS.toLocaleString('en')} characters.`,
    );
    await box.fill('y'.repeat(MAX_PROMPT_CHARS + 10));
    await expect(box.inputValue()).resolves.toBe('y'.repeat(MAX_PROMPT_CHARS));
    // A prompt the agent refuses all the same (a script can set a longer value than maxlength lets
    // one type), on each transport: the page shows the agent's own message, Stop is off again, and
    // the text is back in the box, not lost.
    const tooLong = 'x'.repeat(MAX_PROMPT_CHARS + 1);
    for (const [transport, said] of [
      ['sse', /400.*prompt.*at most 20000 characters/s],
      ['ws', /refused the prompt.*at most 20000 characters.*invalid_request/s],
    ] as const) {
      await page.locator(`label[for=t-${transport}]`).click();
      await box.evaluate((el, text) => ((el as unknown as { value: string }).value = text), tooLong);
      await box.press('Enter');
      await page.waitForFunction(() => /Error/.test(document.getElementById('status')?.textContent ?? ''));
      await expect(page.locator('#status').textContent()).resolves.toMatch(said);
      await expect(page.locator('#stop').isDisabled()).resolves.toBe(true);
      await expect(box.inputValue()).resolves.toBe(tooLong);
      // The timeline says the turn failed, not that it still waits for the LLM.
      await expect(page.locator('#timeline tbody tr.llm td').textContent()).resolves.toBe('no text: the turn failed');
      await page.evaluate(() => (document.getElementById('status')!.textContent = ''));
    }
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
        // Talk too: the microphone is for secure contexts only, and the note says so.
        expect(text).toContain('microphone (Talk)');
        await expect(page.locator('#talk').isDisabled()).resolves.toBe(true);
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
