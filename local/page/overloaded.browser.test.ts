// The page when the voice service refuses: an agent whose TTS container answers every session
// with 503 (admission control) and whose retry budget is zero fails the turn with
// `tts_overloaded`, and the page tells the caller the voice service is busy.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { EchoProvider, startAgentServer, WebSocketTransport } from '@kokoro-speech/runtime';
import { CHROMIUM, hasChromium, launchChromium } from '../src/testing/chromium.ts';
import { parseLocalOptions } from '../src/stack/options.ts';
import { startLocalStack, type LocalStack } from '../src/stack/stack.ts';

const haveChromium = hasChromium();
if (!haveChromium)
  console.warn(`SKIPPED: browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
const maybe = haveChromium ? test : test.skip;

declare const document: { getElementById(id: string): { textContent: string } | null };

let refusing: Server;
let agent: Awaited<ReturnType<typeof startAgentServer>>;
let stack: LocalStack;
let browser: Browser;

beforeAll(async () => {
  const body = JSON.stringify({
    error: { code: 'overloaded', message: 'every session slot is taken', retry_after_s: 1 },
  });
  refusing = createServer((_req, res) => res.writeHead(503).end(body));
  refusing.on('upgrade', (_req, socket) =>
    socket.end(
      `HTTP/1.1 503 Service Unavailable\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ),
  );
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  agent = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 10, tokensPerSecond: 400 }),
    tts: new WebSocketTransport({
      url: `ws://127.0.0.1:${(refusing.address() as AddressInfo).port}`,
      retry: { budgetMs: 0 },
    }),
  });
  stack = await startLocalStack(parseLocalOptions(['--agent', agent.url, '--port', '0']));
  if (haveChromium) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await agent?.close();
  await new Promise<void>((resolve) => refusing?.close(() => resolve()));
});

maybe('a turn the voice service refuses: the page says the voice service is busy', async () => {
  const page = await browser.newPage();
  await page.goto(stack.url);
  await page.locator('#prompt').fill('Hello there.');
  await page.locator('#prompt').press('Enter');
  await page.waitForFunction(() => /Error/.test(document.getElementById('status')?.textContent ?? ''));
  await expect(page.locator('#status').textContent()).resolves.toMatch(
    /voice service is busy \(every voice is in use\); try again in a moment \(tts_overloaded\)/,
  );
  await expect(page.locator('#stop').isDisabled()).resolves.toBe(true);
  await page.close();
});
