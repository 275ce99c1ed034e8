// Sign-in in Debian's Chromium, against npm start --auth on loopback (stand-in model, echo LLM, the
// local OpenID Connect provider and the AgentCore stand-in): a user signs in on the provider's
// page, speaks a turn over SSE and one over WebSocket with the token, and signs out; another user
// cannot use the first one's session and sees none of it; a sign-in that ends mid-conversation
// sends the user to sign in again, and the conversation goes on; and the same in same-origin mode.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import WebSocket from 'ws';
import { bearerSubprotocols } from '../src/agentcore-stand-in/bearer.ts';
import { TEST_USERS } from '../src/auth/test-users.ts';
import { parseLocalOptions } from '../src/stack/options.ts';
import { startLocalStack, type LocalStack } from '../src/stack/stack.ts';
import { CHROMIUM, hasChromium, launchChromium } from '../src/testing/chromium.ts';
import { signInOverHttp } from '../src/testing/sign-in-over-http.ts';
import type { PageConfig } from '../src/web-server/page-config.ts';

const haveChromium = hasChromium();
if (!haveChromium)
  console.warn(`SKIPPED: browser tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
const suite = haveChromium ? describe : describe.skip;

const [ALICE, BOB] = TEST_USERS as [(typeof TEST_USERS)[0], (typeof TEST_USERS)[0]];
/** Tokens last this long here, so that refreshing, and a sign-in that ends, happen within a test. */
const TOKEN_TTL_S = 4;
const SESSION_HEADER = 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id';

interface PageTurn {
  prompt: string;
  error?: string;
  doneAt?: number;
  sentences: { samples: number }[];
}
declare const window: { kokoro: { turns(): PageTurn[]; session(): string; user(): { name: string } | null } };
declare const document: { getElementById(id: string): { textContent: string } | null };

let browser: Browser;
beforeAll(async () => {
  if (haveChromium) browser = await launchChromium();
});
afterAll(() => browser?.close());

async function startStack(mode: 'direct' | 'same-origin'): Promise<{ stack: LocalStack; config: PageConfig }> {
  const stack = await startLocalStack(
    parseLocalOptions(['--offline', '--port', '0', '--llm', 'echo', '--auth', '--auth-mode', mode], {
      ECHO_FIRST_TOKEN_MS: '20',
      ECHO_TOKENS_PER_SECOND: '400',
      KOKORO_AUTH_TOKEN_TTL_S: String(TOKEN_TTL_S),
    }),
  );
  const config = (await (await fetch(new URL('/config.json', stack.url))).json()) as PageConfig;
  return { stack, config };
}

/** A page in its own browser context (its own cookies and storage: one person's browser). */
async function openPage(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  return { page, errors };
}

/** On the provider's sign-in page: the user's name and password, then back on the page, signed in. */
async function signInOnProvider(page: Page, config: PageConfig, user: typeof ALICE): Promise<void> {
  await page.waitForURL((u) => u.origin === new URL(config.auth!.authority).origin);
  await page.locator('#username').fill(user.username);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type=submit]', { hasText: 'Sign in' }).click();
  await page.waitForURL((u) => u.href.startsWith(config.auth!.redirectUri) && !u.search);
  await page.waitForFunction((name) => window.kokoro?.user()?.name === name, user.username);
}

async function ask(page: Page, transport: 'sse' | 'ws', prompt: string): Promise<void> {
  await page.locator(`label[for=t-${transport}]`).click();
  await page.locator('#prompt').fill(prompt);
  await page.locator('#prompt').press('Enter');
}

/** Waits until the page's turn n is done (or failed); its record. */
async function turnDone(page: Page, n: number): Promise<PageTurn> {
  await page.waitForFunction((i) => {
    const t = window.kokoro.turns()[i];
    return t !== undefined && (t.doneAt !== undefined || t.error !== undefined);
  }, n - 1);
  return (await page.evaluate(() => window.kokoro.turns()))[n - 1]!;
}

const answer = (page: Page) => page.locator('#answer').textContent();

suite('sign-in in Chromium (npm start --auth, direct mode)', () => {
  let stack: LocalStack;
  let config: PageConfig;
  beforeAll(async () => {
    ({ stack, config } = await startStack('direct'));
  }, 60_000);
  afterAll(() => stack?.close());

  test('config.json names the provider, the page client and the stand-in', () => {
    expect(config).toEqual({
      region: 'us-east-1',
      runtimeArn: expect.stringMatching(/^arn:aws:bedrock-agentcore:us-east-1:\d{12}:runtime\//),
      qualifier: 'DEFAULT',
      mode: 'direct',
      endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      info: '/api/info',
      auth: {
        authority: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        clientId: 'kokoro-speech-page',
        redirectUri: stack.url,
        postLogoutRedirectUri: stack.url,
        scope: 'openid profile email',
      },
    });
  });

  test('sign in on the provider, a turn over SSE and one over WebSocket (the token refreshed between), sign out', async () => {
    const context = await browser.newContext();
    const refreshes: string[] = [];
    context.on('request', (r) => {
      if (r.method() === 'POST' && /grant_type=refresh_token/.test(r.postData() ?? '')) refreshes.push(r.url());
    });
    const { page, errors } = await openPage(context, stack.url);
    await page.waitForFunction(() => /Sign in to talk/.test(document.getElementById('status')?.textContent ?? ''));
    await expect(page.locator('#prompt').isDisabled()).resolves.toBe(true);
    await page.locator('#sign-in').click();
    await signInOnProvider(page, config, ALICE);
    await expect(page.locator('#user').textContent()).resolves.toBe('alice');
    await expect(page.locator('#sign-out').isVisible()).resolves.toBe(true);
    await expect(page.locator('#prompt').isDisabled()).resolves.toBe(false);
    await page.waitForFunction(() => (document.getElementById('llm')?.textContent ?? '…') !== '…');

    await ask(page, 'sse', 'My name is Ada. I like trains.');
    const first = await turnDone(page, 1);
    expect(first.error).toBeUndefined();
    expect(first.sentences.reduce((n, s) => n + s.samples, 0)).toBeGreaterThan(0);
    expect((await answer(page))?.trim()).toBe('My name is Ada. I like trains.');

    // Past the token's lifetime: the next turn refreshes it first (with the refresh token).
    await page.waitForTimeout(TOKEN_TTL_S * 1000);
    await ask(page, 'ws', 'What did I say before?');
    const second = await turnDone(page, 2);
    expect(second.error).toBeUndefined();
    expect((await answer(page))?.trim()).toBe('You said: My name is Ada. I like trains.');
    expect(refreshes.length).toBeGreaterThanOrEqual(1);
    expect(new URL(refreshes[0]!).origin).toBe(config.auth!.authority);

    await page.locator('#sign-out').click();
    await page.locator('button[name=logout]').click(); // the provider's confirmation
    await page.waitForURL((u) => u.href === stack.url);
    await page.waitForFunction(() => /Sign in to talk/.test(document.getElementById('status')?.textContent ?? ''));
    await expect(page.evaluate(() => window.kokoro.user())).resolves.toBeNull();
    await expect(page.locator('#sign-in').isVisible()).resolves.toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test("another user cannot use the first one's session id (403, SSE and WebSocket) and sees none of its history", async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context, stack.url);
    await page.locator('#sign-in').click();
    await signInOnProvider(page, config, ALICE);
    await ask(page, 'sse', 'The secret word is pelican.');
    expect((await turnDone(page, 1)).error).toBeUndefined();
    const alicesSession = await page.evaluate(() => window.kokoro.session());
    expect(errors).toEqual([]);
    await context.close();

    // Bob, with a token of his own from the same provider, presents Alice's session id.
    const bob = await signInOverHttp({
      issuer: config.auth!.authority,
      clientId: config.auth!.clientId,
      redirectUri: config.auth!.redirectUri,
      username: BOB.username,
      password: BOB.password,
    });
    const runtime = `/runtimes/${encodeURIComponent(config.runtimeArn!)}`;
    const res = await fetch(`${config.endpoint}${runtime}/invocations?qualifier=DEFAULT`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bob.accessToken}`,
        [SESSION_HEADER]: alicesSession,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ prompt: 'What did I say before?' }),
    });
    const body = await res.text();
    // (Compared as a pair: a failure names the status and whether Alice's words leaked, not the stream.)
    expect([res.status, /pelican/.test(body)]).toEqual([403, false]);
    expect(JSON.parse(body).error?.code).toBe('forbidden');
    const ws = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const socket = new WebSocket(
        `${config.endpoint!.replace('http', 'ws')}${runtime}/ws?qualifier=DEFAULT&${SESSION_HEADER}=${alicesSession}`,
        bearerSubprotocols(bob.accessToken),
      );
      socket.once('open', () => {
        socket.close();
        resolve({ status: 101, body: '' });
      });
      socket.once('unexpected-response', (_req, r) => {
        let text = '';
        r.on('data', (d: Buffer) => (text += d));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      });
      socket.once('error', reject);
    });
    expect([ws.status, /pelican/.test(ws.body)]).toEqual([403, false]);

    // In his own browser, Bob's conversation starts empty.
    const bobs = await browser.newContext();
    const own = await openPage(bobs, stack.url);
    await own.page.locator('#sign-in').click();
    await signInOnProvider(own.page, config, BOB);
    await ask(own.page, 'ws', 'What did I say before?');
    expect((await turnDone(own.page, 1)).error).toBeUndefined();
    expect((await answer(own.page))?.trim()).toBe('You have not said anything before.');
    expect(own.errors).toEqual([]);
    await bobs.close();
  }, 120_000);

  test('a sign-in that ends mid-conversation sends the user to sign in again; the conversation and the prompt come back', async () => {
    const context = await browser.newContext();
    const { page, errors } = await openPage(context, stack.url);
    await page.locator('#sign-in').click();
    await signInOnProvider(page, config, ALICE);
    await ask(page, 'sse', 'Remember the number seven.');
    expect((await turnDone(page, 1)).error).toBeUndefined();
    const session = await page.evaluate(() => window.kokoro.session());

    // Signed out at the provider in another tab: the refresh token goes with that sign-in.
    const other = await context.newPage();
    await other.goto(`${config.auth!.authority}/session/end`);
    await other.locator('button[name=logout]').click();
    await other.waitForLoadState();
    await other.close();
    await page.waitForTimeout(TOKEN_TTL_S * 1000); // and the access token runs out

    await ask(page, 'sse', 'What did I say before?');
    await signInOnProvider(page, config, ALICE);
    await expect(page.locator('#notice').textContent()).resolves.toMatch(/Signed in again/);
    await expect(page.evaluate(() => window.kokoro.session())).resolves.toBe(session);
    await expect(page.locator('#prompt').inputValue()).resolves.toBe('What did I say before?');
    await page.locator('#prompt').press('Enter');
    expect((await turnDone(page, 1)).error).toBeUndefined();
    expect((await answer(page))?.trim()).toBe('You said: Remember the number seven.');
    // The one thing logged: the browser's own note on the refused refresh (400 invalid_grant).
    expect(errors).toEqual([expect.stringMatching(/status of 400/)]);
    await context.close();
  }, 120_000);
});

suite('sign-in in Chromium (npm start --auth, same-origin mode)', () => {
  let stack: LocalStack;
  let config: PageConfig;
  beforeAll(async () => {
    ({ stack, config } = await startStack('same-origin'));
  }, 60_000);
  afterAll(() => stack?.close());

  test("turns go to /runtimes/* on the page's own origin, over SSE and WebSocket", async () => {
    expect(config.mode).toBe('same-origin');
    expect(config.endpoint).toBeUndefined();
    const context = await browser.newContext();
    const calls: string[] = [];
    context.on('request', (r) => {
      if (r.url().includes('/runtimes/')) calls.push(new URL(r.url()).origin);
    });
    const { page, errors } = await openPage(context, stack.url);
    await page.locator('#sign-in').click();
    await signInOnProvider(page, config, BOB);
    await ask(page, 'sse', 'Hello over SSE.');
    expect((await turnDone(page, 1)).error).toBeUndefined();
    await ask(page, 'ws', 'What did I say before?');
    expect((await turnDone(page, 2)).error).toBeUndefined();
    expect((await answer(page))?.trim()).toBe('You said: Hello over SSE.');
    expect(new Set(calls)).toEqual(new Set([new URL(stack.url).origin]));
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
