// The page's DOM: its elements, the status line and notices, the set-up list, the current turn's
// area (the answer's sentence spans, the notes under it), stacking a turn above it, and redrawing
// the timeline and the list of earlier turns.
import { renderHistory, renderTimeline } from './timeline.js';
import { finishedTurns, state } from './turn-state.js';

const $ = (id) => document.getElementById(id);
export const els = {
  form: $('ask'),
  promptBox: $('prompt'),
  stopButton: $('stop'),
  talkButton: $('talk'),
  transcript: $('transcript'),
  newConversation: $('new-conversation'),
  answer: $('answer'),
  you: $('you'),
  notes: $('turn-notes'),
  conversation: $('conversation'),
  status: $('status'),
  timeline: $('timeline'),
  history: $('history'),
  sessionLabel: $('session'),
  voicePicker: $('voice'),
  notice: $('notice'),
  promptLimit: $('prompt-limit'),
};

export function setStatus(text) {
  els.status.textContent = text;
}

const notices = [];
export function addNotice(text) {
  notices.push(text);
  els.notice.textContent = notices.join(' ');
  els.notice.hidden = false;
}

/** The agent's longest prompt (the turn schema's): the box takes no more, and the hint says so. */
export function showPromptLimit(max) {
  els.promptBox.maxLength = max;
  els.promptLimit.textContent = `Up to ${max.toLocaleString('en')} characters.`;
}

export function showSession() {
  els.sessionLabel.textContent = state.sessionId;
  els.sessionLabel.title = `conversation (session) id: ${state.sessionId}`;
}

let renderQueued = false;
/** Redraws the timeline of the turn playing (else the latest) at the next frame. */
export function scheduleRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    const turn = state.active ?? state.turns.at(-1);
    if (turn?.session === state.sessionId) renderTimeline(els.timeline, turn);
    // While a sentence plays, its bar grows: redraw ten times a second.
    if (state.active?.sentences.some((s) => s.playStart != null && s.playEnd == null)) setTimeout(scheduleRender, 100);
  });
}

/** The finished turns of this conversation, newest first, under the timeline. */
export function showEarlierTurns() {
  renderHistory(els.history, finishedTurns());
}

/** Moves the start of the answer's unassigned tail into a span for this sentence (for highlighting). */
export function wrapSentence(turn, sentence) {
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
export function note(turn, text, cls) {
  const li = document.createElement('li');
  li.className = cls;
  li.textContent = text;
  turn.notes.append(li);
  return li;
}

/** The turn area shows this turn: its prompt, and its answer as it streams in. */
export function showTurn(turn) {
  els.you.textContent = turn.prompt;
  els.answer.replaceChildren(turn.tail);
}

export function clearSpeaking() {
  for (const el of els.answer.querySelectorAll('.speaking')) el.classList.remove('speaking');
}

/** The turn area now showing becomes a stacked earlier turn. */
export function stackCurrent() {
  const { you, answer, notes } = els;
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
  els.conversation.append(li);
  const stacked = state.turns.find((t) => t.answerEl === answer);
  if (stacked) stacked.answerEl = said;
  li.scrollIntoView?.({ block: 'nearest' });
}

/** A new conversation: nothing of the one left stays on the page. */
export function clearConversation() {
  stackCurrent(); // its turn no longer owns the answer area
  els.conversation.replaceChildren();
  els.you.textContent = '';
  els.answer.replaceChildren();
  els.notes.replaceChildren();
  els.timeline.replaceChildren(
    Object.assign(document.createElement('p'), {
      className: 'empty',
      textContent: 'Send a prompt to see where the time goes.',
    }),
  );
  showEarlierTurns();
}

/** One more row of the set-up list, after the row of `afterId`. */
function setupRow(afterId, label, id, text, title) {
  const row = document.createElement('div');
  const dt = document.createElement('dt');
  dt.textContent = label;
  const dd = document.createElement('dd');
  dd.id = id;
  dd.textContent = text;
  row.append(dt, dd);
  if (title) row.title = title;
  $(afterId).parentElement.after(row);
}

/** The set-up of a deployed runtime, from config.json alone (no /api/info there). */
function deployedInfo(config) {
  const id = config.runtimeArn?.split('/').at(-1) ?? 'runtime';
  return {
    llm: { name: 'remote', description: 'as configured on the runtime' },
    model: { kind: 'remote', description: "the runtime's speech endpoint" },
    target: { kind: 'agentcore', description: `AgentCore ${id} (${config.region})` },
  };
}

/** The set-up from /api/info (else config.json): the LLM, the speech model, the agent, the region and the tools. */
export async function showSetup(config) {
  const info = config.info ? await fetch(config.info).then((r) => r.json()) : deployedInfo(config);
  $('llm').textContent = info.llm.description;
  $('model').textContent = info.model.description;
  $('target').textContent = info.target.description;
  if (info.tools) {
    const names = info.tools.map((t) => t.name).join(', ');
    setupRow(
      'target',
      'Tools',
      'tools',
      names || 'none',
      info.tools.map((t) => `${t.name}: ${t.description}`).join('\n'),
    );
  }
  if (info.region) setupRow('target', 'Region', 'region', info.region.name, `AWS region, from ${info.region.source}`);
  if (info.auth) setupRow('target', 'Sign-in', 'provider', 'local provider', info.auth.description);
  if (info.llm.name === 'echo') {
    addNotice(
      'Echo model in use: the answer repeats your prompt (ask "What did I say before?" to see its memory). Start with --llm bedrock or --llm openai for a real model.',
    );
    const directives = (info.tools ?? []).map((t) => t.echo).filter(Boolean);
    if (directives.length > 0)
      addNotice(
        `It calls a tool when the prompt holds its directive (${directives.join(', ')}), then says what follows it with {result} replaced by the result.`,
      );
  }
  if (info.model.kind === 'stand-in') {
    addNotice('Stand-in model (--offline): you hear a tone instead of a voice, with the real streaming timing.');
  }
}
