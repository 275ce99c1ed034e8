// The page's state: its recent turns (for the timeline, the list of earlier turns, tests and bug
// reports), the turn streaming in, the turn still playing, the conversation's session id, and a
// playback report waiting to be sent. Plain data: the other modules read and change it.
import { newSessionId } from './transports.js';

/** The page keeps this many recent turns. */
const KEPT_TURNS = 30;

export const state = {
  /** Recent turns, oldest first. */
  turns: [],
  /** The turn whose events are streaming in. */
  current: null,
  /** The turn streaming or still playing (what Stop stops). */
  active: null,
  sessionId: newSessionId(),
  /** A playback report not sent yet (SSE, or a socket gone): it goes with the next turn. */
  pendingPlayedMs: null,
  /** Settles when the interruption under way has reported its position. */
  interrupting: Promise.resolve(),
};

let counter = 0;

/**
 * A new turn, now current and active. `fields`: transport, prompt, ready (the player set up),
 * tail (the span the answer's text streams into), answerEl and notes (where it is shown).
 */
export function startTurn(fields) {
  const turn = {
    n: ++counter,
    session: state.sessionId,
    t0: performance.now(),
    sentences: [],
    byId: new Map(),
    tools: [],
    abort: new AbortController(),
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
    /** The status shown when it has played (a voice session that ended meanwhile), else "Done.". */
    finishedStatus: null,
    ...fields,
  };
  state.turns.push(turn);
  if (state.turns.length > KEPT_TURNS) state.turns.splice(0, state.turns.length - KEPT_TURNS);
  state.current = turn;
  state.active = turn;
  return turn;
}

export const turnNumbered = (n) => state.turns.find((t) => t.n === n);

/** The finished turns of this conversation, oldest first. */
export const finishedTurns = () => state.turns.filter((t) => t.finished && t.session === state.sessionId);

/** The turns without their DOM nodes and handles (for tests and bug reports). */
export function turnsReport() {
  return state.turns.map(
    ({ abort, tail, byId, ready, sentences, tools, answerEl, notes, socket, opus, nowWord, ...t }) => ({
      ...t,
      sentences: sentences.map(({ el, wordEls, ...s }) => s),
      tools: tools.map(({ el, ...x }) => x),
    }),
  );
}
