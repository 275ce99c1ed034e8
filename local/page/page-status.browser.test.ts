// What the page says, in Debian's Chromium against the real local stack (stand-in model, a slow
// echo LLM, every built-in tool on): the status follows the turn (asking, speaking from the first
// sound while the answer is still being written, done), the prompt box empties once sent, counts
// are in the right number, New conversation clears the earlier turns, and the set-up names the
// agent's tools with the echo directives that make the model call them.
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { builtinTools, BUILTIN_TOOL_NAMES } from '@kokoro-speech/runtime';
import { ask, openPage as openDriverPage, pageErrors, pageSuite } from '../src/testing/page-driver.ts';

/** At 12 tokens a second the echo model writes this for about five seconds after its first sentence. */
const SLOW = `Here it comes. ${'And then one more word follows the last one, '.repeat(7)}until the end.`;

interface StatusEntry {
  text: string;
  /** Whether the agent's stream of the latest turn was over when the status changed. */
  streamOver: boolean | undefined;
}
interface PageTurn {
  n: number;
  doneAt?: number;
  finished: boolean;
  tools: { name: string; error: string | null }[];
}
declare const window: { kokoro: { turns(): PageTurn[] }; statusLog: StatusEntry[] };
declare const document: {
  getElementById(id: string): { textContent: string } | null;
  querySelectorAll(selector: string): { length: number };
};
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: { childList: boolean; characterData: boolean; subtree: boolean }): void;
}

pageSuite(
  'what the page says',
  () => {
    /** A page on the stack that logs every status change, with whether the latest turn's stream was over then. */
    async function openPage(): Promise<{ page: Page; errors: string[] }> {
      const page = await openDriverPage();
      await page.evaluate(() => {
        window.statusLog = [];
        const status = document.getElementById('status');
        new MutationObserver(() =>
          window.statusLog.push({
            text: status!.textContent,
            streamOver: (window.kokoro.turns().at(-1) as { streamOver?: boolean } | undefined)?.streamOver,
          }),
        ).observe(status, { childList: true, characterData: true, subtree: true });
      });
      return { page, errors: pageErrors.get(page)! };
    }

    const statuses = async (page: Page) =>
      (await page.evaluate(() => window.statusLog)).filter((e, i, all) => e.text !== all[i - 1]?.text);
    const waitForStatus = (page: Page, text: string) =>
      page.waitForFunction((t) => document.getElementById('status')?.textContent === t, text, { timeout: 60_000 });

    /** Turn n has finished and the status says so. */
    const waitForDone = (page: Page, n: number) =>
      page.waitForFunction(
        (k) =>
          window.kokoro.turns().find((t) => t.n === k)?.finished === true &&
          document.getElementById('status')?.textContent === 'Done.',
        n,
        { timeout: 60_000 },
      );

    test('the status says asking, then speaking from the first sound (the answer still being written), then done', async () => {
      const { page, errors } = await openPage();
      await ask(page, 'sse', SLOW);
      await expect(page.locator('#prompt').inputValue()).resolves.toBe(''); // sent: the box is empty again
      await waitForStatus(page, 'Speaking…');
      const [asking, speaking] = await statuses(page);
      expect(asking).toEqual({ text: 'Asking over SSE…', streamOver: false });
      expect(speaking).toEqual({ text: 'Speaking…', streamOver: false });
      await page.locator('#stop').click();
      await waitForStatus(page, 'Stopped.');

      await page.evaluate(() => (window.statusLog = []));
      await ask(page, 'sse', 'Right.');
      await waitForDone(page, 2);
      expect((await statuses(page)).map((e) => e.text)).toEqual(['Asking over SSE…', 'Speaking…', 'Done.']);
      // The earlier turns, in the right number: newest first.
      await expect(page.locator('#history li').allTextContents()).resolves.toEqual([
        expect.stringMatching(/^#2 SSE first sound \d+ ms, first audio \d+ ms, 1 sentence, done$/),
        expect.stringMatching(/^#1 SSE first sound \d+ ms, first audio \d+ ms, \d+ sentences?, interrupted after/),
      ]);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test('New conversation clears the earlier turns and the timeline, not only the answers', async () => {
      const { page, errors } = await openPage();
      await ask(page, 'sse', 'Right.');
      await waitForDone(page, 1);
      await expect(page.locator('#history li').count()).resolves.toBe(1);
      await expect(page.locator('#timeline tbody tr').count()).resolves.toBeGreaterThan(0);
      await page.locator('#new-conversation').click();
      await waitForStatus(page, 'New conversation.');
      await expect(page.locator('#history li').count()).resolves.toBe(0);
      await expect(page.locator('#timeline').textContent()).resolves.toBe('Send a prompt to see where the time goes.');
      await expect(page.locator('#conversation li').count()).resolves.toBe(0);
      // The next turn of the new conversation is the only earlier turn then.
      await ask(page, 'sse', 'Right.');
      await waitForDone(page, 2);
      await expect(page.locator('#history li').allTextContents()).resolves.toEqual([expect.stringMatching(/^#2 SSE /)]);
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    test("the set-up names the agent's tools, and the echo directive shown for each makes it call that tool", async () => {
      const { page, errors } = await openPage();
      const names = builtinTools(BUILTIN_TOOL_NAMES).map((t) => t.name);
      await expect(page.locator('#tools').textContent()).resolves.toBe(names.join(', '));
      const notice = (await page.locator('#notice').textContent())!;
      const directives = [...notice.matchAll(/<tool name="[^"]+">.*?<\/tool>/g)].map((m) => m[0]);
      expect(directives.map((d) => /name="([^"]+)"/.exec(d)![1])).toEqual(names);
      for (const [i, directive] of directives.entries()) {
        await ask(page, 'sse', `Let me see.${directive} That was it.`);
        await waitForDone(page, i + 1);
        const turn = (await page.evaluate(() => window.kokoro.turns())).at(-1)!;
        expect(turn.n).toBe(i + 1);
        expect(turn.tools.map((t) => t.name)).toEqual([names[i]]);
      }
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);
  },
  { tools: BUILTIN_TOOL_NAMES.join(','), echoTokensPerSecond: 12 },
);
