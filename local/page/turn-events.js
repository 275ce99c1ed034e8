// The turn's events as they come in (the turn contract: start, text, sentence, audio, words,
// sentence_end, tool, metrics, error, done) and the worklet's playback events: each updates the
// turn's record and its view. Times are ms since the prompt was sent (`at`); the agent's own times
// (text_ms, tool times) are moved onto that clock from its start event.
import { OpusTurnDecoder } from './opus.js';
import { state } from './turn-state.js';
import { els, note, scheduleRender, setStatus, wrapSentence } from './view.js';
import { renderWords } from './words.js';

/** Hands PCM s16le samples of a sentence (an ArrayBuffer) to the worklet, in order. */
function deliver(player, turn, id, seq, pcm) {
  const s = turn.byId.get(id);
  if (!s || turn.cancelled) return;
  s.samples += pcm.byteLength / 2;
  turn.ready.then(() => {
    if (!turn.cancelled) player.push(turn.n, id, seq, pcm);
  });
}

/** PCM s16le: an odd trailing byte is carried over to the next chunk of the sentence. */
function evenBytes(s, pcm) {
  let bytes = pcm;
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
  return bytes;
}

/** A sentence's record; a filler is not part of the answer's text: it gets a note, not a span. */
function newSentence(turn, event, at) {
  // text_ms: when the piece was complete in the answer (agent clock, from its start event);
  // the event itself comes when the sentence's audio starts.
  const s = {
    id: event.id,
    index: event.index,
    text: event.text,
    filler: event.filler === true,
    textAt: event.text_ms != null ? event.text_ms + (turn.startAt ?? 0) : at,
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
  s.el = s.filler ? note(turn, `said “${s.text}” while a tool ran`, 'filler') : wrapSentence(turn, s);
  if (!s.filler) s.at = s.el.textContent.length - s.text.trim().length; // where its text starts in its span
  return s;
}

function failed(turn, message) {
  turn.error = message;
  setStatus(`Error: ${turn.error}`);
}

const HANDLERS = {
  start(turn, event, at, player) {
    turn.startAt = at; // the agent's turn clock starts here: its text_ms times are moved by this
    turn.sampleRate = event.sample_rate;
    turn.sessionId = event.session_id ?? null;
    turn.format = event.format;
    if (event.format === 'opus') {
      turn.opus = new OpusTurnDecoder(
        event.sample_rate,
        (id, seq, pcm) => deliver(player, turn, id, seq, pcm),
        (err) => failed(turn, `Opus decoding failed: ${err.message}`),
      );
    } else if (event.format !== 'pcm_s16le') throw new Error(`cannot play ${event.format} audio`);
    turn.ready = player.prepare(event.sample_rate).then(() => player.resume());
  },
  text(turn, event, at) {
    turn.textEvents = (turn.textEvents ?? 0) + 1;
    turn.firstTextAt ??= at;
    turn.lastTextAt = at;
    turn.tail.textContent += event.delta;
  },
  sentence(turn, event, at) {
    const s = newSentence(turn, event, at);
    turn.sentences.push(s);
    turn.byId.set(s.id, s);
  },
  audio(turn, event, at, player) {
    const s = turn.byId.get(event.id);
    if (!s) return;
    s.firstAudioAt ??= at;
    s.wireBytes = (s.wireBytes ?? 0) + event.pcm.length;
    if (turn.opus) turn.opus.push(s.id, event.pcm);
    else deliver(player, turn, s.id, event.seq, evenBytes(s, event.pcm).slice().buffer); // own copy, transferred
  },
  words(turn, event) {
    const s = turn.byId.get(event.id);
    if (!s) return;
    s.words = [...(s.words ?? []), ...event.words];
    s.wordsEstimated = event.estimated;
    if (!s.filler) renderWords(s); // a filler is a note, not part of the answer's text
  },
  sentence_end(turn, event, at) {
    const s = turn.byId.get(event.id);
    if (!s) return;
    s.endAt = at;
    s.synthesis_ms = event.synthesis_ms;
    s.duration_ms = event.duration_ms;
  },
  tool(turn, event) {
    const offset = turn.startAt ?? 0;
    let tool = turn.tools.find((t) => t.id === event.id);
    if (!tool) {
      tool = { id: event.id, name: event.name, startAt: event.started_ms + offset, endAt: null, error: null };
      tool.el = note(turn, `tool ${event.name}…`, 'tool');
      turn.tools.push(tool);
    }
    if (event.state !== 'ended') return;
    tool.endAt = (event.ended_ms ?? event.started_ms) + offset;
    tool.duration_ms = event.duration_ms;
    tool.error = event.error ?? null;
    tool.el.textContent = `tool ${event.name}: ${Math.round(event.duration_ms ?? 0)} ms${tool.error ? ` — error: ${tool.error}` : ''}`;
    if (tool.error) tool.el.classList.add('failed');
  },
  metrics(turn, event) {
    turn.metrics = event;
    // A better estimate of where the agent's clock starts: delivery delays only ever add, so take the
    // smallest offset that any event with an agent time gives.
    const offset = Math.min(
      turn.startAt ?? Infinity,
      event.first_token_ms != null && turn.firstTextAt != null ? turn.firstTextAt - event.first_token_ms : Infinity,
    );
    if (Number.isFinite(offset)) for (const s of turn.sentences) if (s.textMs != null) s.textAt = s.textMs + offset;
  },
  error(turn, event) {
    // Refused by the voice service past the agent's retries: say what it means for the caller.
    failed(
      turn,
      event.code === 'tts_overloaded'
        ? 'the voice service is busy (every voice is in use); try again in a moment (tts_overloaded)'
        : `${event.code}: ${event.message}`,
    );
  },
  done(turn, _event, at) {
    turn.doneAt = at;
  },
};

/** One event of the turn streaming in; late events of an interrupted turn are dropped. */
export function onTurnEvent(turn, event, player) {
  if (turn !== state.current) return;
  HANDLERS[event.type]?.(turn, event, performance.now() - turn.t0, player);
  scheduleRender();
}

/**
 * A playback event of the worklet ({type: 'started'|'ended'|'drained'|'stopped', turn, id, at}):
 * the sentence playing is marked, and the status says the answer is being spoken from its first
 * sound on; `finish(turn)` once a turn whose stream ended has played out.
 */
export function onPlayback(e, finish) {
  const turn = state.turns.find((t) => t.n === e.turn);
  const s = turn?.byId.get(e.id);
  if (!s) return;
  const at = e.at - turn.t0;
  if (e.type === 'started') {
    s.heardAt ??= at; // unclamped, for tests and bug reports
    s.playStart ??= Math.max(at, s.firstAudioAt ?? at); // a sentence is never heard before its audio came
    s.playEnd = null;
    for (const other of els.answer.querySelectorAll('.speaking')) other.classList.remove('speaking');
    if (!s.filler && turn.answerEl === els.answer) {
      s.el.classList.add('speaking');
      s.el.setAttribute('aria-current', 'true');
    }
    if (turn === state.active && !turn.error) setStatus('Speaking…');
  } else {
    s.playEnd = Math.max(at, s.playStart ?? at);
    s.el.classList.remove('speaking');
    s.el.removeAttribute('aria-current');
    // Ran dry after the stream ended: the turn has been spoken in full.
    if (e.type === 'drained' && turn.streamEnded && !turn.finished) finish(turn);
  }
  scheduleRender();
}
