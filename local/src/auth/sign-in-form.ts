// The sign-in step of the local provider's authorization flow: oidc-provider hands the browser to
// /interaction/<uid>; this shows the form, checks the test user's password, and hands the
// interaction back (or its cancellation). Our own rather than oidc-provider's development
// interactions, which take any name and ignore the password.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { readBody } from '@kokoro-speech/protocol/server';
import { signInPage } from './provider-pages.ts';
import { checkPassword } from './test-users.ts';

const MAX_FORM_BYTES = 4096;

export async function handleInteraction(
  provider: Provider,
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/abort)?$/.exec(url.pathname);
  if (!m) throw new Error(`no page ${url.pathname}`);
  const action = `/interaction/${m[1]}`;
  const details = await provider.interactionDetails(req, res); // throws when the interaction is gone
  if (details.prompt.name !== 'login') throw new Error(`this provider has no ${details.prompt.name} step`);
  if (m[2]) {
    if (req.method !== 'POST') throw new Error('cancel with POST');
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the user cancelled the sign-in' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (req.method === 'GET') return html(res, 200, signInPage(action));
  if (req.method !== 'POST') throw new Error(`${req.method} is not a sign-in`);
  const body = await readBody(req, MAX_FORM_BYTES, (n) => new Error(`a sign-in form of ${n} bytes`), res);
  const form = new URLSearchParams(body.toString('utf8'));
  const username = form.get('username') ?? '';
  const user = checkPassword(username, form.get('password') ?? '');
  if (!user) return html(res, 401, signInPage(action, { username, problem: 'Wrong user name or password.' }));
  await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // No form-action: Chromium applies it to the redirects after the post too (back to the page).
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
  });
  res.end(body);
}
