// Driving the page in Debian's Chromium (playwright-core) against the real local stack, for the
// page's browser tests: the stack and the browser for a suite, a page opened once its set-up shows,
// a prompt sent, and the page's and its audio worklet's state polled from here.
import { afterAll, beforeAll, describe, expect } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from './chromium.ts';
import { parseLocalOptions } from '../stack/options.ts';
import { startLocalStack, type LocalStack } from '../stack/stack.ts';

export const PROMPT = 'Streaming starts early. Then more follows at once! Does it all play?';
export const SHORT = 'Right. Here it is!';
export const LONG =
  'This answer is long on purpose, so that it is still playing when the listener interrupts it. ' +
  'It goes on for a while, one sentence after another, with nothing much to say. '.repeat(6);

export interface Report {
  received: { turn: number; id: string; seq: number; samples: number }[];
  played: Record<string, number>;
  playOrder: [number, string, number][];
  rejected: number;
  flushes: number;
  buffered: number;
  sampleRate: number;
}
export interface PageWord {
  text: string;
  start: number;
  end: number;
  start_ms: number;
  end_ms: number;
}
export interface PageTurn {
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

// The page's globals as seen inside page.evaluate / waitForFunction callbacks (no DOM lib here):
// a test file declares them with these types (`declare const document: PageDocument`).
export interface PageWindow {
  kokoro: { report(): Promise<Report>; turns(): PageTurn[]; session(): string; settled(): Promise<boolean> };
}
export interface PageDocument {
  querySelectorAll(selector: string): { length: number };
  getElementById(id: string): { textContent: string } | null;
  activeElement: { getAttribute(name: string): string | null } | null;
}
declare const window: PageWindow;
declare const document: PageDocument;

export let stack: LocalStack;
export let browser: Browser;

/** What a suite's local stack runs: the agent's tools, and how fast the echo LLM writes. */
export interface PageStackOptions {
  /** `--tools` (default: the calculator). */
  tools?: string;
  /** ECHO_TOKENS_PER_SECOND (default 400). */
  echoTokensPerSecond?: number;
}

/** The local stack (stand-in model, the echo LLM, its tools) and Chromium, for a test file's suite. */
function usePageStack({ tools = 'calculator', echoTokensPerSecond = 400 }: PageStackOptions): void {
  beforeAll(async () => {
    stack = await startLocalStack(
      parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo', '--tools', tools], {
        ECHO_FIRST_TOKEN_MS: '20',
        ECHO_TOKENS_PER_SECOND: String(echoTokensPerSecond),
      }),
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
}

/** Errors the page logged; each test checks them at its end. */
export const pageErrors = new WeakMap<Page, string[]>();

/** A new page on the stack, once it shows its set-up. */
export async function openPage(): Promise<Page> {
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
export async function until(page: Page, what: string, check: (r: Report, t: PageTurn[]) => boolean): Promise<void> {
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
export const playedOut = (n: number) => (r: Report, t: PageTurn[]) =>
  t[n - 1]?.doneAt != null && samplesOf(t[n - 1]) > 0 && r.played[String(n)] === samplesOf(t[n - 1]);

export const report = (page: Page) => page.evaluate(() => window.kokoro.report());
export const turns = (page: Page) => page.evaluate(() => window.kokoro.turns());

/** Sends `prompt` from the page over `transport` (in `format` when given). */
export async function ask(page: Page, transport: 'sse' | 'ws', prompt: string, format?: 'opus' | 'pcm'): Promise<void> {
  await page.locator(`label[for=t-${transport}]`).click();
  if (format) await page.locator(`label[for=f-${format}]`).click();
  await page.locator('#prompt').fill(prompt);
  await page.locator('#prompt').press('Enter');
}

/** The answer's text as the page shows it. */
export const answerText = async (page: Page) => ((await page.locator('#answer').textContent()) ?? '').trim();
export const untilDone = (page: Page, n: number) =>
  until(page, `turn ${n} is done`, (_r, t) => t[n - 1]?.doneAt != null);

/** The page's tests in a suite with the stack and Chromium up; skipped, saying why, without Debian's Chromium. */
export function pageSuite(name: string, tests: () => void, options: PageStackOptions = {}): void {
  const haveChromium = hasChromium();
  if (!haveChromium)
    console.warn(`SKIPPED: browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  (haveChromium ? describe : describe.skip)(name, () => {
    usePageStack(options);
    tests();
  });
}
