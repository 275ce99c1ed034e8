// Talk in Debian's Chromium: a WAV made at test time (espeak-ng, sox) is the page's microphone
// (Chromium's fake capture device). The customer asks for something long, the transcript shows,
// the answer plays; speaking again during the answer cuts it at once (the page's own Silero VAD),
// the page tells the agent how much was heard (`barge_in`), and the agent's history keeps exactly
// that: asked "What did you say before?", the echo model says back what the page marked as heard.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium } from '../src/testing/chromium.ts';
import {
  ESPEAK,
  fakeMicrophone,
  SOX,
  spokenWav,
  startTalkStack,
  type SpokenWav,
  type TalkStack,
} from '../src/testing/talk-stack.ts';

const ready = hasChromium() && existsSync(ESPEAK) && existsSync(SOX);
if (!ready)
  console.warn(
    `SKIPPED: the Talk test needs Debian's chromium (${CHROMIUM}), espeak-ng and sox (apt-get install -y chromium espeak-ng sox)`,
  );
const suite = ready ? describe : describe.skip;

/** What the transcription stand-in "hears": a request long enough to be answered at length, then a question. */
const ASK =
  'Tell me a long story about the sea. ' +
  'The waves come and go, and the story goes on for a while, one sentence after another. '.repeat(14).trim();
const AGAIN = 'What did you say before?';

interface TalkReport {
  onsets: { at: number; sample: number }[];
  vadOnsets: number[];
  cuts: { turn: number; vadAt: number; stoppedAt: number; onsetAt: number | null; playedMs?: number }[];
  frames: number;
  dropped: number;
  vad: string;
  talking: boolean;
  listening: boolean;
  micLive: boolean | null;
}
interface PageTurn {
  n: number;
  prompt: string;
  transport: string;
  playedMs: number | null;
  heardText: string | null;
  reported?: string;
  cancelled?: boolean;
  doneAt?: number;
  finished: boolean;
  finishedStatus: string | null;
  error?: string;
}
declare const window: {
  kokoro: {
    report(): Promise<{ played: Record<string, number>; sampleRate: number }>;
    turns(): PageTurn[];
    talk(): TalkReport;
  };
};
declare const document: { getElementById(id: string): { textContent: string; className: string } | null };

let dir: string;
let wav: SpokenWav;
let talk: TalkStack;
let browser: Browser;

suite('Talk in Chromium', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kokoro-talk-wav-'));
    // The pause is long enough for the answer to be playing even on a loaded machine (its first audio
    // has taken 7 s there); the answer is longer still; the tail ends the second turn.
    wav = spokenWav(
      dir,
      [
        { pauseS: 1, text: 'Please tell me a story about the sea' },
        { pauseS: 20, text: 'Hold on what did you say before' },
      ],
      5,
    );
    talk = await startTalkStack([ASK, AGAIN]);
    browser = await launchChromium(fakeMicrophone(wav.path));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await talk?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function until<T>(page: Page, what: string, read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
    const deadline = Date.now() + 90_000; // generous: 2 shared cores, a model and a browser
    for (;;) {
      const value = await read();
      if (check(value)) return value;
      if (Date.now() > deadline) {
        const state = await page.evaluate(() => ({
          turns: window.kokoro
            .turns()
            .map((t) => ({ n: t.n, reported: t.reported, cancelled: t.cancelled, done: t.doneAt, error: t.error })),
          talk: window.kokoro.talk(),
          status: document.getElementById('status')?.textContent,
        }));
        throw new Error(`timed out waiting until ${what}; the page: ${JSON.stringify(state)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('the customer speaks: transcript, answer, a second utterance cuts it, and the history keeps what was heard', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const sent: { type: string; played_ms?: number }[] = [];
    const received: { type: string; turns?: number }[] = [];
    let audioFrames = 0;
    page.on('websocket', (ws) => {
      ws.on('framesent', (f) => {
        if (typeof f.payload === 'string') sent.push(JSON.parse(f.payload) as { type: string });
        else audioFrames++;
      });
      ws.on('framereceived', (f) => {
        if (typeof f.payload === 'string') received.push(JSON.parse(f.payload) as { type: string });
      });
    });
    await page.goto(talk.stack.url);
    const button = page.getByRole('button', { name: /talk/i });
    await expect(button.textContent()).resolves.toMatch(/^\s*Talk\s*$/);
    await button.click();
    await expect(button.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(button.textContent()).resolves.toBe('Stop talking');
    // It switched to the WebSocket (SSE is the page's default) and said so.
    await expect(page.locator('#t-ws').isChecked()).resolves.toBe(true);
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/Talk uses the WebSocket/);

    const turns = () => page.evaluate(() => window.kokoro.turns());
    const talkReport = () => page.evaluate(() => window.kokoro.talk());
    const worklet = () => page.evaluate(() => window.kokoro.report());

    // The transcript appears; the customer's turn becomes a turn like a typed one.
    await until(
      page,
      'the final transcript shows',
      () => page.locator('#transcript').textContent(),
      (t) => t === ASK,
    );
    await expect(page.locator('#transcript').getAttribute('class')).resolves.not.toMatch(/partial/);
    const listen = sent.find((m) => m.type === 'listen') as { input?: unknown } | undefined;
    expect(listen?.input).toEqual({ format: 'pcm_s16le', sample_rate: 16000 });
    expect(audioFrames).toBeGreaterThan(10);

    // The answer plays (the worklet receives and plays its audio) until the second utterance cuts it.
    const [first] = await until(page, 'the answer is cut by voice', turns, (t) => t[0]?.reported === 'barge_in');
    if (!(first!.playedMs! > 0))
      throw new Error('the second utterance came before the answer played: the agent took longer than the pause');
    expect(first!.transport).toBe('voice');
    expect(first!.prompt).toBe(ASK);
    expect(first!.cancelled).toBe(true);
    const r = await worklet();
    expect(first!.playedMs).toBe((r.played['1']! / r.sampleRate) * 1000);
    expect(first!.playedMs!).toBeGreaterThan(0);
    const bargeIns = sent.filter((m) => m.type === 'barge_in');
    expect(bargeIns).toEqual([{ type: 'barge_in', played_ms: first!.playedMs }]);
    const report = await talkReport();
    expect(report.vad).toBe('silero');
    // The page's own VAD cut it, after the second utterance began (its onset is the microphone's second rise).
    expect(report.cuts).toHaveLength(1);
    expect(report.onsets.length).toBeGreaterThanOrEqual(2);
    expect(report.cuts[0]!.stoppedAt).toBeGreaterThan(report.onsets[1]!.at);

    // The agent answers the second utterance from its history, cut at what was heard.
    const all = await until(page, 'the second answer is done', turns, (t) => t[1]?.doneAt != null);
    expect(all[1]!.prompt).toBe(AGAIN);
    const heard = all[0]!.heardText!;
    expect(heard.length).toBeGreaterThan(5);
    expect(ASK.startsWith(heard)).toBe(true);
    expect(heard.length).toBeLessThan(ASK.length);
    const answer = ((await page.locator('#answer').textContent()) ?? '').trim();
    expect(answer).toBe(`I said: ${heard}`);
    // Not one more sample of the first answer after the cut.
    const after = await worklet();
    expect(after.played['1']).toBe(r.played['1']);

    // Stop talking: listen_end goes, the microphone is let go.
    await button.click();
    await expect(button.textContent()).resolves.toBe('Talk');
    expect(sent.at(-1)).toEqual({ type: 'listen_end' });
    await until(page, 'the microphone is released', talkReport, (t) => t.micLive === false);
    await until(
      page,
      'the agent ended the session',
      async () => received.find((m) => m.type === 'listen_end'),
      (end) => end !== undefined,
    );
    expect(received.filter((m) => m.type === 'listen_end')).toEqual([{ type: 'listen_end', turns: 2 }]);
    // The page says so.
    await until(
      page,
      'the page shows the session ended',
      () => page.locator('#status').textContent(),
      (s) => s === 'Stopped talking (2 turns).',
    );
    // An answer still playing then keeps that status when it has played, rather than "Done.".
    const second = (await turns())[1]!;
    if (!second.finished) expect(second.finishedStatus).toBe('Stopped talking (2 turns).');
    console.log(
      `Talk: heard ${heard.length} of ${ASK.length} characters (played ${first!.playedMs!.toFixed(0)} ms); ` +
        `speech onset to playback stopped ${(report.cuts[0]!.stoppedAt - report.onsets[1]!.at).toFixed(0)} ms`,
    );
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  for (const [why, args, message] of [
    [
      'the permission is refused',
      ['--use-fake-device-for-media-stream', '--deny-permission-prompts'],
      /^Microphone permission denied: allow this page to use the microphone/,
    ],
    ['there is no microphone', ['--use-fake-ui-for-media-stream'], /^No microphone found: connect one/],
  ] as const) {
    test(`${why}: the status says so, and Talk is ready to try again`, async () => {
      // A fake microphone whose permission prompt is refused; the fake prompt (granted) with no
      // fake device: this machine has no microphone to give.
      const other = await launchChromium(args);
      try {
        const page = await other.newPage();
        await page.goto(talk.stack.url);
        const button = page.getByRole('button', { name: /talk/i });
        await button.click();
        const status = await until(
          page,
          'the status explains',
          () => page.locator('#status').textContent(),
          (s) => message.test(s ?? ''),
        );
        expect(status).toMatch(message);
        await expect(button.textContent()).resolves.toBe('Talk');
        await expect(button.getAttribute('aria-pressed')).resolves.toBe('false');
        await expect(page.evaluate(() => window.kokoro.talk().talking)).resolves.toBe(false);
      } finally {
        await other.close();
      }
    }, 120_000);
  }
});
