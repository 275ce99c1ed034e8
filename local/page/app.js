// The page: a conversation with the agent over SSE or WebSocket. Each prompt's answer streams in,
// each sentence is highlighted while it plays and the word being spoken within it (from the word
// timings, at the worklet's playback position), audio plays through the pcm-player worklet (Opus
// decoded by WebCodecs first, or PCM), and the turn's timeline shows where the time went (tool
// calls included). Earlier turns stack above the current one. A new prompt, Stop or Esc interrupts
// the answer (barge-in) and reports how much of it was played, from the worklet's own playback
// position, so that the agent keeps in its history only what was heard; the page marks the same
// cut. "New conversation" starts a new session.
import { OpusTurnDecoder, opusSupported } from './opus.js';
import { Player } from './player.js';
import { renderHistory, renderTimeline } from './timeline.js';
import { Interruption, newSessionId, sseTurn, WsClient } from './transports.js';

const $ = (id) => document.getElementById(id);
const form = $('ask');
const promptBox = $('prompt');
const stopButton = $('stop');
const answer = $('answer');
const you = $('you');
const notes = $('turn-notes');
const conversation = $('conversation');
const statusLine = $('status');
const timeline = $('timeline');
const history = $('history');
const sessionLabel = $('session');
const voicePicker = $('voice');

/** Kokoro's pace on real text, for a sentence whose length is not known yet (as the agent assumes). */
const DEFAULT_MS_PER_CHAR = 60;

const player = new Player();
const wsClient = new WsClient();
const turns = [];
let current = null; // the turn whose events are streaming in
let active = null; // the turn streaming or still playing (what Stop stops)
let turnCounter = 0;
let renderQueued = false;
let sessionId = newSessionId();
/** A playback report not sent yet (SSE, or a socket gone): it goes with the next turn. */
let pendingPlayedMs = null;
/** Settles when the interruption under way has reported its position. */
let interrupting = Promise.resolve();

function showSession() {
  sessionLabel.textContent = sessionId;
  sessionLabel.title = `conversation (session) id: ${sessionId}`;
}

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

const notices = [];
function addNotice(text) {
  notices.push(text);
  $('notice').textContent = notices.join(' ');
  $('notice').hidden = false;
}

/** The sentence's words, each in a span (for highlighting), laid over its text. */
function renderWords(s) {
  const text = s.el.textContent;
  const lead = s.text.length - s.text.trimStart().length; // s.el holds the trimmed text at s.at
  const parts = [];
  let at = 0;
  for (const [i, w] of s.words.entries()) {
    const from = s.at + w.start - lead;
    const to = s.at + w.end - lead;
    if (from < at || to > text.length || text.slice(from, to) !== w.text) continue; // not where expected
    if (from > at) parts.push(document.createTextNode(text.slice(at, from)));
    const span = document.createElement('span');
    span.className = 'word';
    span.dataset.word = String(i);
    span.textContent = w.text;
    parts.push(span);
    at = to;
  }
  if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
  s.el.replaceChildren(...parts);
  s.wordEls = [...s.el.querySelectorAll('.word')];
}

/** Marks the word being spoken at the worklet's playback position (ms on the turn's audio clock). */
function highlightWord(turn) {
  const played = player.position(turn.n);
  if (played == null || !turn.sampleRate) return;
  const ms = (played / turn.sampleRate) * 1000;
  let found = null;
  for (const s of turn.sentences) {
    if (s.filler) continue;
    const i = s.words?.findIndex((w) => w.start_ms <= ms && ms < w.end_ms) ?? -1;
    if (i >= 0) found = { s, i };
    if (found) break;
  }
  const el = found ? found.s.el.querySelector(`.word[data-word="${found.i}"]`) : null;
  if (el === turn.nowWord) return;
  turn.nowWord?.classList.remove('now');
  turn.nowWord = el;
  if (el) {
    el.classList.add('now');
    const w = found.s.words[found.i];
    turn.highlights.push({
      id: found.s.id,
      word: found.i,
      text: w.text,
      start_ms: w.start_ms,
      end_ms: w.end_ms,
      atMs: ms,
      at: performance.now() - turn.t0,
    });
  }
}

function followWords(turn) {
  if (turn.finished) {
    turn.nowWord?.classList.remove('now');
    return;
  }
  highlightWord(turn);
  requestAnimationFrame(() => followWords(turn));
}

/** Hands PCM s16le samples of a sentence (an ArrayBuffer) to the worklet, in order. */
function deliver(turn, id, seq, pcm) {
  const s = turn.byId.get(id);
  if (!s || turn.cancelled) return;
  s.samples += pcm.byteLength / 2;
  turn.ready.then(() => {
    if (!turn.cancelled) player.push(turn.n, id, seq, pcm);
  });
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

/** One line under the answer (tool calls, fillers, the cut), outside the answer's own text. */
function note(turn, text, cls) {
  const li = document.createElement('li');
  li.className = cls;
  li.textContent = text;
  turn.notes.append(li);
  return li;
}

function onEvent(turn, event) {
  if (turn !== current) return; // a late event of an interrupted turn
  const at = performance.now() - turn.t0;
  switch (event.type) {
    case 'start':
      turn.startAt = at; // the agent's turn clock starts here: its text_ms times are moved by this
      turn.sampleRate = event.sample_rate;
      turn.sessionId = event.session_id ?? null;
      turn.format = event.format;
      if (event.format === 'opus') {
        turn.opus = new OpusTurnDecoder(
          event.sample_rate,
          (id, seq, pcm) => deliver(turn, id, seq, pcm),
          (err) => {
            turn.error = `Opus decoding failed: ${err.message}`;
            setStatus(`Error: ${turn.error}`);
          },
        );
      } else if (event.format !== 'pcm_s16le') throw new Error(`cannot play ${event.format} audio`);
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
        filler: event.filler === true,
        textAt,
        textMs: event.text_ms,
        firstAudioAt: null,
        heardAt: null,
        endAt: null,
        synthesis_ms: null,
        duration_ms: null,
        playStart: null,
        playEnd: null,
        samples: 0,
        odd: null,
      };
      // A filler is not part of the answer's text: it gets a note, not a span.
      s.el = s.filler ? note(turn, `said “${s.text}” while a tool ran`, 'filler') : wrapSentence(turn, s);
      if (!s.filler) s.at = s.el.textContent.length - s.text.trim().length; // where its text starts in its span
      turn.sentences.push(s);
      turn.byId.set(s.id, s);
      break;
    }
    case 'audio': {
      const s = turn.byId.get(event.id);
      if (!s) break;
      s.firstAudioAt ??= at;
      s.wireBytes = (s.wireBytes ?? 0) + event.pcm.length;
      if (turn.opus) {
        turn.opus.push(s.id, event.pcm);
        break;
      }
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
      deliver(turn, s.id, event.seq, bytes.slice().buffer); // own copy, transferred to the worklet
      break;
    }
    case 'words': {
      const s = turn.byId.get(event.id);
      if (!s) break;
      s.words = [...(s.words ?? []), ...event.words];
      s.wordsEstimated = event.estimated;
      if (!s.filler) renderWords(s); // a filler is a note, not part of the answer's text
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
    case 'tool': {
      // Tool times are on the agent's clock: moved onto this turn's clock like text_ms.
      const offset = turn.startAt ?? 0;
      let tool = turn.tools.find((t) => t.id === event.id);
      if (!tool) {
        tool = { id: event.id, name: event.name, startAt: event.started_ms + offset, endAt: null, error: null };
        tool.el = note(turn, `tool ${event.name}…`, 'tool');
        turn.tools.push(tool);
      }
      if (event.state === 'ended') {
        tool.endAt = (event.ended_ms ?? event.started_ms) + offset;
        tool.duration_ms = event.duration_ms;
        tool.error = event.error ?? null;
        tool.el.textContent = `tool ${event.name}: ${Math.round(event.duration_ms ?? 0)} ms${tool.error ? ` — error: ${tool.error}` : ''}`;
        if (tool.error) tool.el.classList.add('failed');
      }
      break;
    }
    case 'metrics': {
      turn.metrics = event;
      // A better estimate of where the agent's clock starts: delivery delays only ever add, so take the
      // smallest offset that any event with an agent time gives.
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
    s.heardAt ??= at; // unclamped, for tests and bug reports
    s.playStart ??= Math.max(at, s.firstAudioAt ?? at); // a sentence is never heard before its audio came
    s.playEnd = null;
    for (const other of answer.querySelectorAll('.speaking')) other.classList.remove('speaking');
    if (!s.filler && turn.answerEl === answer) {
      s.el.classList.add('speaking');
      s.el.setAttribute('aria-current', 'true');
    }
  } else {
    s.playEnd = Math.max(at, s.playStart ?? at);
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

/** Characters of a sentence heard after `ms` of its audio: the same fraction, whole words only. */
function partialChars(text, ms, duration) {
  const chars = Math.floor((ms / duration) * text.length);
  if (chars >= text.length) return text.length;
  const head = /\s/.test(text[chars] ?? ' ') ? text.slice(0, chars) : text.slice(0, chars).replace(/\S*$/, '');
  return head.trimEnd().length;
}

/**
 * Where the cut falls in the span of the sentence playing at `playedMs` (`t`: when it started,
 * `d`: its duration): after the last word that ended by then when the container timed its words
 * from the model's durations (word times are on the turn's audio clock), else the same fraction
 * of its characters, back to a word end.
 */
function cutInSpan(s, playedMs, t, d) {
  const full = s.el.textContent;
  if (s.words?.length && s.wordsEstimated === false) {
    const lead = s.text.length - s.text.trimStart().length; // s.el holds the trimmed text at s.at
    const last = s.words.filter((w) => w.end_ms <= playedMs).at(-1);
    return last ? s.at + last.end - lead : s.at;
  }
  const gap = full.length - full.trimStart().length;
  return gap + partialChars(full.trimStart(), playedMs - t, d);
}

/**
 * Marks what the caller heard of an interrupted answer, by the rule the agent applies to its
 * history (runtime/README.md): sentences in audio order by their durations, the one playing cut
 * at the last word heard (exact word timings) or in proportion at a word end; fillers take time
 * but hold no text. Returns the heard text.
 */
function markHeard(turn) {
  const playedMs = turn.playedMs;
  const rate = turn.sampleRate ?? player.sampleRate;
  const done = turn.sentences.filter((s) => s.duration_ms != null && !s.filler && s.text.length > 0);
  const msPerChar = done.length
    ? done.reduce((a, s) => a + s.duration_ms, 0) / done.reduce((a, s) => a + s.text.length, 0)
    : DEFAULT_MS_PER_CHAR;
  let t = 0;
  let cut = false;
  for (const s of turn.sentences) {
    if (s.filler) {
      t += s.duration_ms ?? (s.samples / rate) * 1000;
      continue;
    }
    const received = (s.samples / rate) * 1000;
    const d = s.duration_ms ?? Math.max(received, s.text.length * msPerChar);
    if (!cut && s.samples > 0 && playedMs >= t + d) {
      s.el.classList.add('heard');
      t += d;
      continue;
    }
    if (!cut && s.samples > 0 && playedMs > t) {
      // Split the span: its leading gap and the heard words, then the rest.
      const full = s.el.textContent;
      const keep = cutInSpan(s, playedMs, t, d);
      const heard = document.createElement('span');
      heard.className = 'heard';
      heard.textContent = full.slice(0, keep);
      const rest = document.createElement('span');
      rest.className = 'unheard';
      rest.textContent = full.slice(keep);
      s.el.replaceChildren(heard, rest);
    } else {
      s.el.classList.add('unheard');
    }
    cut = true;
  }
  turn.tail.classList.add('unheard');
  const heardText = [...turn.answerEl.querySelectorAll('.heard')]
    .map((el) => el.textContent)
    .join('')
    .trim();
  turn.heardText = heardText;
  note(turn, `cut at ${(playedMs / 1000).toFixed(1)} s: the agent remembers what you heard`, 'cut');
  return heardText;
}

/**
 * Barge-in: silence the turn (streaming or still playing) at once, read how much of it played from
 * the worklet, mark what was heard, and report it: with the WebSocket's cancel, else with the next
 * turn (SSE). Resolves once the report is sent or queued.
 */
function interrupt() {
  const turn = active;
  if (!turn || turn.finished) return interrupting;
  turn.cancelled = true;
  const played = player.flush(turn.n); // silent now; the position comes back from the audio thread
  turn.opus?.close(); // nothing more of it is decoded
  for (const el of answer.querySelectorAll('.speaking')) el.classList.remove('speaking');
  finish(turn, 'Stopped.');
  scheduleRender();
  interrupting = played.then((samples) => {
    turn.playedMs = samples == null ? null : (samples / (turn.sampleRate ?? player.sampleRate)) * 1000;
    if (turn.playedMs != null) markHeard(turn);
    let reported = false;
    if (!turn.streamOver) {
      turn.abort.abort(new Interruption(turn.playedMs)); // WS: the cancel carries played_ms; SSE: disconnect
      reported = turn.transport === 'ws';
    } else if (turn.transport === 'ws' && turn.playedMs != null) {
      reported = wsClient.report(turn.socket, turn.playedMs); // after done: applies to that turn
    }
    if (!reported && turn.playedMs != null) pendingPlayedMs = turn.playedMs;
    turn.reported = reported ? 'cancel' : turn.playedMs == null ? 'none' : 'next turn';
    scheduleRender();
  });
  return interrupting;
}

/** The turn area now showing becomes a stacked earlier turn. */
function stackCurrent() {
  if (!you.textContent && !answer.textContent) return;
  const li = document.createElement('li');
  li.className = 'turn';
  const prompt = document.createElement('p');
  prompt.className = 'you';
  prompt.textContent = you.textContent;
  const said = document.createElement('p');
  said.className = 'answer';
  said.append(...answer.childNodes);
  const extra = document.createElement('ul');
  extra.className = 'turn-notes';
  extra.append(...notes.childNodes);
  li.append(prompt, said, extra);
  conversation.append(li);
  const stacked = turns.find((t) => t.answerEl === answer);
  if (stacked) stacked.answerEl = said;
  li.scrollIntoView?.({ block: 'nearest' });
}

async function ask(promptText) {
  await interrupt();
  player.resume();
  stackCurrent();
  const transport = form.elements.transport.value;
  const format = form.elements.format.value;
  const turn = {
    n: ++turnCounter,
    transport,
    prompt: promptText,
    t0: performance.now(),
    sentences: [],
    byId: new Map(),
    tools: [],
    abort: new AbortController(),
    ready: player.prepare(player.sampleRate),
    tail: document.createElement('span'),
    answerEl: answer,
    notes,
    firstTextAt: null,
    lastTextAt: null,
    streamOver: false,
    streamEnded: false,
    finished: false,
    playedMs: null,
    heardText: null,
    socket: null,
    highlights: [],
    nowWord: null,
  };
  turns.push(turn);
  if (turns.length > 30) turns.splice(0, turns.length - 30); // the page keeps recent turns only
  current = turn;
  active = turn;
  you.textContent = promptText;
  answer.replaceChildren(turn.tail);
  stopButton.disabled = false;
  setStatus(`Asking over ${transport === 'ws' ? 'WebSocket' : 'SSE'}…`);
  scheduleRender();
  followWords(turn);
  const request = {
    prompt: promptText,
    format,
    words: true,
    ...(voicePicker.value ? { voice: voicePicker.value } : {}),
  };
  if (pendingPlayedMs != null) {
    request.previous_played_ms = Math.round(pendingPlayedMs * 100) / 100;
    turn.sentPreviousPlayedMs = request.previous_played_ms;
    pendingPlayedMs = null;
  }
  const on = (event) => onEvent(turn, event);
  try {
    if (transport === 'ws') turn.socket = await wsClient.turn(request, on, turn.abort.signal, sessionId);
    else await sseTurn(request, on, turn.abort.signal, sessionId);
  } catch (err) {
    if (turn.cancelled) return;
    turn.error = err instanceof Error ? err.message : String(err);
  }
  turn.streamOver = true; // the agent's stream is over (a cancel now goes as a report on that turn)
  if (turn.cancelled) return;
  if (turn.opus) {
    // Decoding runs behind arrival: every sentence's samples are handed on before the turn counts as in.
    await turn.opus.flush().catch(() => {});
    turn.opus.close();
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

/** A new session: the agent starts from an empty history; the page clears the conversation. */
async function newConversation() {
  const stopping = interrupt(); // its report still goes to the conversation being left
  sessionId = newSessionId();
  showSession();
  await stopping;
  pendingPlayedMs = null;
  wsClient.close();
  stackCurrent();
  conversation.replaceChildren();
  you.textContent = '';
  answer.replaceChildren();
  notes.replaceChildren();
  setStatus('New conversation.');
  interrupting = Promise.resolve();
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
stopButton.addEventListener('click', () => interrupt());
$('new-conversation').addEventListener('click', () => newConversation());

async function showSetup() {
  const info = await fetch('/api/info').then((r) => r.json());
  $('llm').textContent = info.llm.description;
  $('model').textContent = info.model.description;
  $('target').textContent = info.target.description;
  if (info.region) {
    const row = document.createElement('div');
    row.innerHTML = '<dt>Region</dt><dd id="region"></dd>';
    row.lastChild.textContent = info.region.name;
    row.title = `AWS region, from ${info.region.source}`;
    $('target').parentElement.after(row);
  }
  if (info.llm.name === 'echo') {
    addNotice(
      'Echo model in use: the answer repeats your prompt (ask "What did I say before?" to see its memory). Start with --llm bedrock or --llm openai for a real model.',
    );
  }
  if (info.model.kind === 'stand-in') {
    addNotice('Stand-in model (--offline): you hear a tone instead of a voice, with the real streaming timing.');
  }
}

/** Opus when this browser decodes it; else PCM, and the page says so. */
async function chooseFormat() {
  if (await opusSupported(24000)) return;
  $('f-opus').disabled = true;
  $('f-pcm').checked = true;
  addNotice(
    'This browser cannot decode Opus (WebCodecs AudioDecoder), so audio comes as PCM: about 48 kB/s instead of 4 kB/s.',
  );
}

const LANGUAGES = { 'en-us': 'American English', 'en-gb': 'British English' };

/** The voice picker, from the agent's voice list (POST {"voices": true} through this server). */
async function loadVoices() {
  const res = await fetch('/api/invocations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ voices: true }),
  });
  if (!res.ok) throw new Error(`the voice list answered ${res.status}`);
  const { voices, default: preferred } = await res.json();
  const groups = new Map();
  for (const v of voices) {
    const option = document.createElement('option');
    option.value = v.id;
    const about = [v.gender?.toLowerCase(), v.overall_grade ? `grade ${v.overall_grade}` : null].filter(Boolean);
    option.textContent = `${v.name ?? v.id}${about.length ? ` (${about.join(', ')})` : ''}`;
    option.selected = v.id === preferred;
    const label = LANGUAGES[v.language] ?? v.language;
    if (!groups.has(label)) groups.set(label, Object.assign(document.createElement('optgroup'), { label }));
    groups.get(label).append(option);
  }
  voicePicker.replaceChildren(...groups.values());
  voicePicker.disabled = voices.length === 0;
}
showSession();
player.prepare(24000); // early: creating an AudioContext can take a while
showSetup().catch((err) => setStatus(`Could not read the set-up: ${err.message}`));
chooseFormat();
loadVoices().catch((err) => {
  voicePicker.replaceChildren(Object.assign(document.createElement('option'), { textContent: 'default' }));
  addNotice(`No voice list (${err.message}): the agent's default voice speaks.`);
});

// For tests and bug reports: what the audio worklet received and played, and the turns' timings.
window.kokoro = {
  report: () => player.report(),
  session: () => sessionId,
  /** Resolves once the interruption under way has read and reported its playback position. */
  settled: () => interrupting.then(() => true),
  turns: () =>
    turns.map(
      ({ abort, tail, byId, ready, sentences, tools, answerEl, notes: _notes, socket, opus, nowWord, ...t }) => ({
        ...t,
        sentences: sentences.map(({ el, wordEls, ...s }) => s),
        tools: tools.map(({ el, ...x }) => x),
      }),
    ),
};
