// The page in Debian's Chromium against the real local stack (stand-in model, echo LLM, the
// calculator): tool calls on the timeline, the word spoken highlighted, PCM for a browser without
// Opus, the voice picker, keyboard use and messages, and a server bound beyond loopback (each
// transport's streaming and barge-in: page.browser.test.ts).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import { MAX_PROMPT_CHARS } from '@kokoro-speech/protocol';
import { agentServerUpstream } from '../src/web-server/upstream.ts';
import { startWebServer, type WebServer } from '../src/web-server/web-server.ts';
// What drives the page, then the suite with its stack, and the texts asked.
import {
  answerText,
  ask,
  openPage,
  pageErrors,
  playedOut,
  turns,
  until,
  untilDone,
} from '../src/testing/page-driver.ts';
import { browser, pageSuite, PROMPT, SHORT, stack } from '../src/testing/page-driver.ts';
import type { PageDocument } from '../src/testing/page-driver.ts';
import { launchChromium } from '../src/testing/chromium.ts';

declare const document: PageDocument;

pageSuite('the page in Chromium: tools, words, voices, access', () => {
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
