// Why the page cannot work when it is opened over plain http from another address, and what to do
// instead. Browsers give crypto.randomUUID, AudioWorklet and the microphone (getUserMedia) only to
// secure contexts (https, or http
// on localhost and 127.0.0.1), so there the page's own modules fail to load and nothing happens:
// this module stands alone (its own script tag, no imports) so that it still runs and says so.

const missing = [];
if (typeof globalThis.crypto?.randomUUID !== 'function') missing.push('crypto.randomUUID');
if (!('audioWorklet' in (globalThis.BaseAudioContext?.prototype ?? {}))) missing.push('AudioWorklet');

if (!window.isSecureContext || missing.length > 0) {
  const port = location.port || (location.protocol === 'https:' ? '443' : '80');
  const code = (text) => {
    const c = document.createElement('code');
    c.textContent = text;
    return c;
  };
  const note = document.createElement('p');
  note.id = 'insecure';
  note.className = 'notice';
  note.setAttribute('role', 'alert');
  note.append(
    `This page cannot play audio or hear your microphone (Talk) here: ${location.origin} is not a secure context, and browsers allow ` +
      `${missing.length > 0 ? missing.join(' and ') : 'audio worklets'}, and the microphone, only over https or on localhost. ` +
      'Open it through an SSH port forward: on your own computer run ',
    code(`ssh -L ${port}:127.0.0.1:${port} ${location.hostname}`),
    ' and open ',
    code(`http://127.0.0.1:${port}/`),
    ' there (npm start can then stay on 127.0.0.1), or serve the page over https.',
  );
  const header = document.querySelector('header');
  if (header) header.after(note);
  else document.body.prepend(note);
  // The page's script is not running: keep the form from submitting (a reload) into nothing.
  for (const control of document.querySelectorAll('form button, form textarea, form input')) control.disabled = true;
}
