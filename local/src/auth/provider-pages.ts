// The local OpenID Connect provider's own pages: sign-in, sign-out confirmation, and errors. Plain
// HTML with inline styles and nothing fetched from elsewhere (oidc-provider's default pages load a
// web font from the internet, which neither a test nor an offline laptop reaches).
import { TEST_USERS } from './test-users.ts';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`); // the five characters HTML gives meaning to

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f4f6;margin:0;padding:3rem 1rem;color:#1d1d22}
main{max-width:22rem;margin:0 auto;background:#fff;border-radius:10px;padding:1.5rem 1.75rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.25rem;margin:0 0 1rem}label{display:block;font-size:.85rem;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #bbb;border-radius:6px}
button{margin-top:1.25rem;width:100%;padding:.6rem;font-size:1rem;border:0;border-radius:6px;background:#3b5bdb;color:#fff;cursor:pointer}
button.secondary{background:#e4e6ee;color:#1d1d22;margin-top:.5rem}
.error{color:#b3261e}.hint{font-size:.8rem;color:#555;margin-top:1.25rem}code{background:#eef;padding:0 .2rem}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The sign-in form of one interaction; `problem` after a wrong name or password. */
export function signInPage(action: string, options: { username?: string; problem?: string } = {}): string {
  const users = TEST_USERS.map((u) => `<code>${escape(u.username)}</code> / <code>${escape(u.password)}</code>`);
  return page(
    'Sign in · kokoro-speech (local)',
    `<h1>Sign in to kokoro-speech</h1>
${options.problem ? `<p class="error" role="alert">${escape(options.problem)}</p>` : ''}
<form method="post" action="${escape(action)}">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required autofocus value="${escape(options.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escape(`${action}/abort`)}"><button type="submit" class="secondary">Cancel</button></form>
<p class="hint">The local provider of <code>npm start -- --auth</code>. Test users: ${users.join(', ')}.</p>`,
  );
}

/** oidc-provider's sign-out confirmation; `form` is its own form (with its CSRF field). */
export function signOutPage(form: string, host: string): string {
  return page(
    'Sign out · kokoro-speech (local)',
    `<h1>Sign out of kokoro-speech?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
<p class="hint">The local provider at <code>${escape(host)}</code>.</p>`,
  );
}

export function signedOutPage(): string {
  return page('Signed out · kokoro-speech (local)', '<h1>You are signed out.</h1>');
}

export function errorPage(fields: Record<string, unknown>): string {
  const rows = Object.entries(fields).map(([k, v]) => `<p><strong>${escape(k)}</strong>: ${escape(String(v))}</p>`);
  return page('Sign-in failed · kokoro-speech (local)', `<h1>Sign-in failed</h1>${rows.join('')}`);
}
