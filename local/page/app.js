// The page: a prompt goes to the agent over SSE or WebSocket; the answer's text streams in, each
// sentence is highlighted while it plays, audio plays through the pcm-player worklet, and the turn's
// timeline shows where the time went. A new prompt or Stop interrupts the turn (barge-in).
import { Player } from './player.js';
import { renderHistory, renderTimeline } from './timeline.js';
import { sseTurn, WsClient } from './transports.js';

const $ = (id) => document.getElementById(id);
const form = $('ask');
const promptBox = $('prompt');
const stopButton = $('stop');
const answer = $('answer');
const statusLine = $('status');
const timeline = $('timeline');
const history = $('history');

const player = new Player();
const wsClient = new WsClient();
const turns = [];
let current = null; // the turn whose events are streaming in
let active = null; // the turn streaming or still playing (what Stop stops)
let turnCounter = 0;
let renderQueued = false;

function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    const turn = active ?? turns.at(-1);
    if (turn) renderTimeline(timeline, turn);
    // While a sentence plays, its bar grows: redraw ten times a second.
    if (active && active.sentences.some((s) => s.playStart != null && s.playEnd == null))
      setTimeout(scheduleRender, 100);
  });
}

function setStatus(text) {
  statusLine.textContent = text;
}

/** Moves the start of the answer's unassigned tail into a span for this sentence (for highlighting). */
function wrapSentence(turn, sentence) {
  const tail = turn.tail.textContent;
  const wanted = sentence.text.trim();
  const at = tail.indexOf(wanted);
  const span = document.createElement('span');
  span.className = 'sentence';
  span.dataset.id = sentence.id;
  if (at >= 0) {
    span.textContent = tail.slice(0, at + wanted.length);
    turn.tail.textContent = tail.slice(at + wanted.length);
  }
  turn.tail.before(span);
  return span;
}

function onEvent(turn, event) {
  if (turn !== current) return; // a late event of an interrupted turn
  const at = performance.now() - turn.t0;
  switch (event.type) {
    case 'start':
      turn.startAt = at; // the agent's turn clock starts here: its text_ms times are moved by this
      turn.sampleRate = event.sample_rate;
      if (event.format !== 'pcm_s16le') throw new Error(`cannot play ${event.format} audio`);
      turn.ready = player.prepare(event.sample_rate).then(() => player.resume());
      break;
    case 'text':
      turn.textEvents = (turn.textEvents ?? 0) + 1;
      turn.firstTextAt ??= at;
      turn.lastTextAt = at;
      turn.tail.textContent += event.delta;
      break;
    case 'sentence': {
      // text_ms: when the piece was complete in the answer (agent clock, from its start event);
      // the event itself comes when the sentence's audio starts.
      const textAt = event.text_ms != null ? event.text_ms + (turn.startAt ?? 0) : at;
      const s = {
        id: event.id,
        index: event.index,
        text: event.text,
        textAt,
        textMs: event.text_ms,
        firstAudioAt: null,
        endAt: null,
        synthesis_ms: null,
        playStart: null,
        playEnd: null,
        samples: 0,
        odd: null,
      };
      s.el = wrapSentence(turn, s);
      turn.sentences.push(s);
      turn.byId.set(s.id, s);
      break;
    }
    case 'audio': {
      const s = turn.byId.get(event.id);
      if (!s) break;
      s.firstAudioAt ??= at;
      // PCM s16le: carry an odd trailing byte over to the next chunk of the sentence.
      let bytes = event.pcm;
      if (s.odd !== null) {
        const joined = new Uint8Array(bytes.length + 1);
        joined[0] = s.odd;
        joined.set(bytes, 1);
        bytes = joined;
        s.odd = null;
      }
      if (bytes.length % 2 === 1) {
        s.odd = bytes[bytes.length - 1];
        bytes = bytes.subarray(0, bytes.length - 1);
      }
      const pcm = bytes.slice().buffer; // own copy, transferred to the worklet
      s.samples += pcm.byteLength / 2;
      const seq = event.seq;
      turn.ready.then(() => {
        if (!turn.cancelled) player.push(turn.n, s.id, seq, pcm);
      });
      break;
    }
    case 'sentence_end': {
      const s = turn.byId.get(event.id);
      if (s) {
        s.endAt = at;
        s.synthesis_ms = event.synthesis_ms;
        s.duration_ms = event.duration_ms;
      }
      break;
    }
    case 'metrics': {
      turn.metrics = event;
      // A better estimate of where the agent's clock starts: delivery delays only ever add, so take
      // the smallest offset that any event with an agent time gives.
      const offset = Math.min(
        turn.startAt ?? Infinity,
        event.first_token_ms != null && turn.firstTextAt != null ? turn.firstTextAt - event.first_token_ms : Infinity,
      );
      if (Number.isFinite(offset)) for (const s of turn.sentences) if (s.textMs != null) s.textAt = s.textMs + offset;
      break;
    }
    case 'error':
      // Refused by the voice service past the agent's retries: say what it means for the caller.
      turn.error =
        event.code === 'tts_overloaded'
          ? 'the voice service is busy (every voice is in use); try again in a moment (tts_overloaded)'
          : `${event.code}: ${event.message}`;
      setStatus(`Error: ${turn.error}`);
      break;
    case 'done':
      turn.doneAt = at;
      break;
  }
  scheduleRender();
}

player.on((e) => {
  const turn = turns.find((t) => t.n === e.turn);
  const s = turn?.byId.get(e.id);
  if (!s) return;
  const at = e.at - turn.t0;
  if (e.type === 'started') {
    s.playStart ??= at;
    s.playEnd = null;
    for (const other of answer.querySelectorAll('.speaking')) other.classList.remove('speaking');
    s.el.classList.add('speaking');
    s.el.setAttribute('aria-current', 'true');
  } else {
    s.playEnd = at;
    s.el.classList.remove('speaking');
    s.el.removeAttribute('aria-current');
    // Ran dry after the stream ended: the turn has been spoken in full.
    if (e.type === 'drained' && turn.streamEnded && !turn.finished)
      finish(turn, turn.error ? `Error: ${turn.error}` : 'Done.');
  }
  scheduleRender();
});

/** The turn is over (spoken, stopped or failed): Stop has nothing left to do. */
function finish(turn, status) {
  turn.finished = true;
  if (current === turn) current = null;
  if (active === turn) {
    active = null;
    stopButton.disabled = true;
    setStatus(status);
  }
  renderHistory(
    history,
    turns.filter((t) => t.finished),
  );
}

/** Barge-in: cancel the turn (streaming or still playing) and silence its audio at once. */
function interrupt() {
  const turn = active;
  if (!turn || turn.finished) return;
  turn.cancelled = true;
  turn.abort.abort(new DOMException('interrupted', 'AbortError'));
  player.flush(turn.n);
  for (const el of answer.querySelectorAll('.speaking')) el.classList.remove('speaking');
  finish(turn, 'Stopped.');
  scheduleRender();
}

async function ask(promptText) {
  interrupt();
  player.resume();
  const transport = form.elements.transport.value;
  const turn = {
    n: ++turnCounter,
    transport,
    t0: performance.now(),
    sentences: [],
    byId: new Map(),
    abort: new AbortController(),
    ready: player.prepare(player.sampleRate),
    tail: document.createElement('span'),
    firstTextAt: null,
    lastTextAt: null,
    streamEnded: false,
    finished: false,
  };
  turns.push(turn);
  if (turns.length > 30) turns.splice(0, turns.length - 30); // the page keeps recent turns only
  current = turn;
  active = turn;
  answer.replaceChildren(turn.tail);
  stopButton.disabled = false;
  setStatus(`Asking over ${transport === 'ws' ? 'WebSocket' : 'SSE'}…`);
  scheduleRender();
  const request = { prompt: promptText, format: 'pcm_s16le' };
  const on = (event) => onEvent(turn, event);
  try {
    if (transport === 'ws') await wsClient.turn(request, on, turn.abort.signal);
    else await sseTurn(request, on, turn.abort.signal);
  } catch (err) {
    if (turn.cancelled) return;
    turn.error = err instanceof Error ? err.message : String(err);
  }
  if (turn.cancelled) return;
  turn.streamEnded = true;
  if (current === turn) current = null;
  player.end(turn.n);
  if (turn.error) setStatus(`Error: ${turn.error}`);
  else if (active === turn) setStatus('Speaking…');
  // Nothing to play (or all of it played already): done now; otherwise when the worklet drains.
  if (turn.sentences.every((s) => s.samples === 0 || s.playEnd != null))
    finish(turn, turn.error ? `Error: ${turn.error}` : 'Done.');
  scheduleRender();
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = promptBox.value.trim();
  if (!text) {
    promptBox.focus();
    return;
  }
  ask(text);
});
promptBox.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    form.requestSubmit();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') interrupt();
});
stopButton.addEventListener('click', interrupt);

async function showSetup() {
  const info = await fetch('/api/info').then((r) => r.json());
  $('llm').textContent = info.llm.description;
  $('model').textContent = info.model.description;
  $('target').textContent = info.target.description;
  const notes = [];
  if (info.llm.name === 'echo') {
    notes.push(
      'Echo model in use: the answer repeats your prompt. Start with --llm bedrock or --llm openai for a real model.',
    );
  }
  if (info.model.kind === 'stand-in') {
    notes.push('Stand-in model (--offline): you hear a tone instead of a voice, with the real streaming timing.');
  }
  if (notes.length) {
    $('notice').textContent = notes.join(' ');
    $('notice').hidden = false;
  }
}
player.prepare(24000); // early: creating an AudioContext can take a while
showSetup().catch((err) => setStatus(`Could not read the set-up: ${err.message}`));

// For tests and bug reports: what the audio worklet received and played, and the turns' timings.
window.kokoro = {
  report: () => player.report(),
  turns: () =>
    turns.map(({ abort, tail, byId, ready, sentences, ...t }) => ({
      ...t,
      sentences: sentences.map(({ el, ...s }) => s),
    })),
};
