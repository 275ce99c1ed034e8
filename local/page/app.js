// The page: a conversation with the agent over SSE or WebSocket. Each prompt's answer streams in,
// each sentence is highlighted while it plays and the word being spoken within it (from the word
// timings, at the worklet's playback position), audio plays through the pcm-player worklet (Opus
// decoded by WebCodecs first, or PCM), and the turn's timeline shows where the time went (tool
// calls included). Earlier turns stack above the current one. A new prompt, Stop or Esc interrupts
// the answer (barge-in) and reports how much of it was played, from the worklet's own playback
// position, so that the agent keeps in its history only what was heard; the page marks the same
// cut. "New conversation" starts a new session. With sign-in (config.json), turns go to the
// AgentCore runtime with the user's token, and an expired sign-in sends the user to sign in again.
// This module wires the parts: the settings and endpoint (agent-endpoint.js), sign-in
// (sign-in.js, account.js), the turn state (turn-state.js), its events (turn-events.js), the view
// (view.js, words.js), the heard cut (heard-marks.js), the voice picker (voices.js) and Talk
// (talk.js: the customer speaks, over a voice session on the WebSocket).
import { showAccount, signInAgain } from './account.js';
import { agentEndpoint, loadConfig } from './agent-endpoint.js';
import { markHeard } from './heard-marks.js';
import { opusSupported } from './opus.js';
import { Player } from './player.js';
import { SignIn, SignInNeeded } from './sign-in.js';
import { Interruption, newSessionId, sseTurn, Unauthorized, WsClient } from './transports.js';
import { setUpTalk } from './talk.js';
import { onPlayback, onTurnEvent } from './turn-events.js';
import { startTurn, state, turnsReport } from './turn-state.js';
import { loadVoices } from './voices.js';
import * as view from './view.js';
import { followWords } from './words.js';
import { MAX_PROMPT_CHARS } from '/vendor/kokoro-speech/turn-limits.js';

const { els } = view;
const player = new Player();

/** The settings, and the sign-in when they ask for one (it finishes a redirect back from it). */
async function setUp() {
  const config = await loadConfig();
  return { config, signIn: config.auth ? await SignIn.start(config.auth) : null };
}
const setup = await setUp().catch((err) => {
  view.setStatus(`Could not start: ${err.message}`);
  for (const control of els.form.querySelectorAll('button, textarea, input')) control.disabled = true;
  return null;
});
const config = setup?.config ?? { auth: null };
const signIn = setup?.signIn ?? null;
const endpoint = agentEndpoint(config, signIn);
const wsClient = new WsClient(endpoint);

/** The turn is over (spoken, stopped or failed): Stop has nothing left to do. */
function finish(turn, status = turn.error ? `Error: ${turn.error}` : (turn.finishedStatus ?? 'Done.')) {
  turn.finished = true;
  if (state.current === turn) state.current = null;
  if (state.active === turn) {
    state.active = null;
    els.stopButton.disabled = true;
    view.setStatus(status);
  }
  view.showEarlierTurns();
}

player.on((e) => onPlayback(e, finish));

/**
 * Barge-in: silence the turn (streaming or still playing) at once, read how much of it played from
 * the worklet, mark what was heard, and report it: with the WebSocket's cancel, else with the next
 * turn (SSE). Resolves once the report is sent or queued.
 */
function interrupt() {
  const turn = state.active;
  if (!turn || turn.finished) return state.interrupting;
  turn.cancelled = true;
  const played = player.flush(turn.n); // silent now; the position comes back from the audio thread
  turn.opus?.close(); // nothing more of it is decoded
  view.clearSpeaking();
  finish(turn, 'Stopped.');
  view.scheduleRender();
  state.interrupting = played.then((samples) => {
    const rate = turn.sampleRate ?? player.sampleRate;
    turn.playedMs = samples == null ? null : (samples / rate) * 1000;
    if (turn.playedMs != null) markHeard(turn, rate);
    let reported = false;
    if (turn.voice) {
      reported = turn.voice.bargeIn(turn.playedMs); // the voice session goes on
    } else if (!turn.streamOver) {
      turn.abort.abort(new Interruption(turn.playedMs)); // WS: the cancel carries played_ms; SSE: disconnect
      reported = turn.transport === 'ws';
    } else if (turn.transport === 'ws' && turn.playedMs != null) {
      reported = wsClient.report(turn.socket, turn.playedMs); // after done: applies to that turn
    }
    if (!reported && turn.playedMs != null) state.pendingPlayedMs = turn.playedMs;
    turn.reported = reported ? (turn.voice ? 'barge_in' : 'cancel') : turn.playedMs == null ? 'none' : 'next turn';
    view.scheduleRender();
  });
  return state.interrupting;
}

/** A turn request's settings (a voice session's too): the format and voice chosen, a playback report waiting. */
function turnSettings(turn) {
  const request = {
    format: els.form.elements.format.value,
    words: true,
    ...(els.voicePicker.value ? { voice: els.voicePicker.value } : {}),
  };
  // The voice's language: the agent tells the model to answer in it (docs/contracts/turn.md).
  const language = els.voicePicker.selectedOptions[0]?.dataset.language;
  if (request.voice && language) request.language = language;
  if (state.pendingPlayedMs != null) {
    request.previous_played_ms = Math.round(state.pendingPlayedMs * 100) / 100;
    if (turn) turn.sentPreviousPlayedMs = request.previous_played_ms;
    state.pendingPlayedMs = null;
  }
  return request;
}

/** A new turn on the page, shown, current and active: typed (`sse`, `ws`) or spoken (`voice`: the agent's). */
function openTurn(prompt, transport) {
  player.resume();
  view.stackCurrent();
  const turn = startTurn({
    transport,
    prompt,
    ready: player.prepare(player.sampleRate),
    tail: document.createElement('span'),
    answerEl: els.answer,
    notes: els.notes,
  });
  view.showTurn(turn);
  els.stopButton.disabled = false;
  view.setStatus(transport === 'voice' ? 'Answering…' : `Asking over ${transport === 'ws' ? 'WebSocket' : 'SSE'}…`);
  view.scheduleRender();
  followWords(turn, player);
  return turn;
}

async function ask(prompt) {
  await interrupt();
  const transport = els.form.elements.transport.value;
  const turn = openTurn(prompt, transport);
  const request = { prompt, ...turnSettings(turn) };
  const on = (event) => onTurnEvent(turn, event, player);
  let expired = false;
  try {
    if (transport === 'ws') turn.socket = await wsClient.turn(request, on, turn.abort.signal, state.sessionId);
    else await sseTurn(endpoint, request, on, turn.abort.signal, state.sessionId);
  } catch (err) {
    if (turn.cancelled) return;
    expired = signIn !== null && (err instanceof SignInNeeded || err instanceof Unauthorized);
    turn.error = expired ? `the sign-in expired (${err.message})` : err instanceof Error ? err.message : String(err);
    // Never started (refused, or the agent unreachable): the prompt comes back to be edited, unless
    // something new was typed meanwhile.
    if (!expired && turn.startAt == null && !els.promptBox.value) {
      els.promptBox.value = prompt;
      els.promptBox.focus();
    }
  }
  if (expired) {
    finish(turn);
    return signInAgain(signIn, state.sessionId, prompt);
  }
  await closeTurn(turn);
}

/** The agent's stream of the turn is over: it plays out what it has, then the turn finishes. */
async function closeTurn(turn) {
  turn.streamOver = true; // the agent's stream is over (a cancel now goes as a report on that turn)
  if (turn.cancelled) return;
  if (turn.opus) {
    // Decoding runs behind arrival: every sentence's samples are handed on before the turn counts as in.
    await turn.opus.flush().catch(() => {});
    turn.opus.close();
  }
  if (turn.cancelled) return;
  turn.streamEnded = true;
  if (state.current === turn) state.current = null;
  player.end(turn.n);
  if (turn.error) view.setStatus(`Error: ${turn.error}`);
  else if (state.active === turn) view.setStatus('Speaking…');
  // Nothing to play (or all of it played already): done now; otherwise when the worklet drains.
  if (turn.sentences.every((s) => s.samples === 0 || s.playEnd != null)) finish(turn);
  view.scheduleRender();
}

/** A new session: the agent starts from an empty history; the page clears the conversation. */
async function newConversation() {
  talk.stop(); // its voice session belongs to the conversation being left
  const stopping = interrupt(); // its report still goes to the conversation being left
  state.sessionId = newSessionId();
  view.showSession();
  await stopping;
  state.pendingPlayedMs = null;
  wsClient.close();
  view.clearConversation();
  view.setStatus('New conversation.');
  state.interrupting = Promise.resolve();
}

els.form.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = els.promptBox.value.trim();
  if (talk.active()) {
    view.setStatus('Talking: press Stop talking to type a prompt.');
    return;
  }
  if (!text) {
    els.promptBox.focus();
    return;
  }
  els.promptBox.value = ''; // sent: the box is ready for the next prompt
  ask(text);
});
els.promptBox.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    els.form.requestSubmit();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') interrupt();
});
els.stopButton.addEventListener('click', () => interrupt());
els.newConversation.addEventListener('click', () => newConversation());
const talk = setUpTalk(els.talkButton, els.transcript, {
  wsClient,
  player,
  interrupt,
  openTurn,
  closeTurn,
  settings: () => turnSettings(null),
});

/** Opus when this browser decodes it; else PCM, and the page says so. */
async function chooseFormat() {
  if (await opusSupported(24000)) return;
  document.getElementById('f-opus').disabled = true;
  document.getElementById('f-opus').dataset.unavailable = 'true'; // stays off when the form is enabled
  document.getElementById('f-pcm').checked = true;
  view.addNotice(
    'This browser cannot decode Opus (WebCodecs AudioDecoder), so audio comes as PCM: about 48 kB/s instead of 4 kB/s.',
  );
}

// Back from signing in again: the same conversation, and the prompt that was being sent.
if (signIn?.returned?.again && signIn.returned.session) {
  state.sessionId = signIn.returned.session;
  view.addNotice('Signed in again: the conversation goes on (the agent still has its earlier turns).');
}
if (signIn?.returned?.prompt) els.promptBox.value = signIn.returned.prompt;
if (signIn?.failure) view.setStatus(`Sign-in failed: ${signIn.failure}`);

view.showSession();
view.showPromptLimit(MAX_PROMPT_CHARS);
player.prepare(24000); // early: creating an AudioContext can take a while
if (setup) {
  showAccount(signIn, () => {
    talk.stop();
    interrupt();
    wsClient.close();
  });
  view.showSetup(config).catch((err) => view.setStatus(`Could not read the set-up: ${err.message}`));
  chooseFormat();
  if (!signIn || signIn.user) loadVoices(els.voicePicker, view.addNotice, endpoint, state.sessionId);
}

// For tests and bug reports: what the audio worklet received and played, and the turns' timings.
window.kokoro = {
  report: () => player.report(),
  session: () => state.sessionId,
  /** Who is signed in ({sub, name}), or null. */
  user: () => signIn?.user ?? null,
  /** Resolves once the interruption under way has read and reported its playback position. */
  settled: () => state.interrupting.then(() => true),
  turns: turnsReport,
  /** Talk: the microphone's onsets, the page's VAD onsets and barge-ins (page clock, ms). */
  talk: () => talk.report(),
};
