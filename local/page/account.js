// Who is signed in, in the page's header, and the ways in and out: Sign in (to the provider),
// Sign out, and signing in again when the sign-in expired in the middle of a conversation (the
// conversation and the prompt being sent come back afterwards). Without sign-in (config.json's
// auth is null) it shows nothing.
import { els, setStatus } from './view.js';

const $ = (id) => document.getElementById(id);

/** Disables the prompt form (signed out) or enables it. */
function formEnabled(on) {
  for (const control of els.form.querySelectorAll('button, textarea, input'))
    control.disabled = !on || control.dataset.unavailable === 'true';
  els.stopButton.disabled = true; // nothing plays yet either way
}

/** Shows the account area for `signIn` (a SignIn, or null without sign-in). */
export function showAccount(signIn, onSignOut) {
  if (!signIn) return;
  $('account').hidden = false;
  const user = signIn.user;
  $('user').textContent = user ? user.name : 'Not signed in';
  $('user').title = user ? `signed in as ${user.name} (sub ${user.sub})` : '';
  $('sign-in').hidden = !!user;
  $('sign-out').hidden = !user;
  $('sign-in').onclick = () => signIn.signIn();
  $('sign-out').onclick = () => {
    onSignOut();
    signIn.signOut();
  };
  formEnabled(!!user);
  if (!user) setStatus('Sign in to talk to the agent.');
}

/** The sign-in expired (or was refused): to the provider, keeping this conversation and prompt. */
export function signInAgain(signIn, sessionId, prompt) {
  setStatus('Your sign-in has expired: signing in again…');
  formEnabled(false);
  signIn.signIn({ again: true, session: sessionId, prompt });
}
