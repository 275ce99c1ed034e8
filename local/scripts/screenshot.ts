// Regenerates docs/screenshot.png: the page mid-answer (second sentence playing), from the real
// local stack with the stand-in model and the echo LLM at a realistic pace (400 ms, 40 tokens/s).
//   npm run -w local screenshot -- [out.png]
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../src/testing/chromium.ts';
import { parseLocalOptions } from '../src/stack/options.ts';
import { startLocalStack } from '../src/stack/stack.ts';

const OUT = process.argv[2] ?? fileURLToPath(new URL('../../docs/screenshot.png', import.meta.url));
const ANSWER =
  'Kokoro starts speaking while the answer is still being written. Each sentence goes to the speech model ' +
  'the moment it is complete, so the first words play in well under a second. You can interrupt at any time: ' +
  'stale audio stops at once.';

declare const window: { kokoro: { turns(): { sentences: { playStart: number | null }[] }[] } };

const stack = await startLocalStack(
  parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo'], {
    ECHO_FIRST_TOKEN_MS: '400',
    ECHO_TOKENS_PER_SECOND: '40',
  }),
);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1040, height: 900 }, deviceScaleFactor: 1.5 });
  await page.goto(stack.url);
  await page.locator('#prompt').fill('Say why streaming speech matters, in three sentences.');
  await page.locator('#prompt').press('Enter'); // a first turn, so "earlier turns" has something in it
  await page.waitForFunction(() => window.kokoro.turns()[0]?.sentences[0]?.playStart != null);
  await page.locator('#prompt').fill(ANSWER);
  await page.locator('#prompt').press('Enter');
  await page.waitForFunction(() => window.kokoro.turns()[1]?.sentences[1]?.playStart != null, undefined, {
    timeout: 20_000,
  });
  await page.waitForTimeout(600);
  await page.screenshot({ path: OUT, fullPage: true });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await stack.close();
}
