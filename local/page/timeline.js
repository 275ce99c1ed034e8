// Renders one turn's timeline: when the LLM's first token came, when its tools ran, and per
// sentence when its text was complete, when its audio arrived (synthesis + transport), and when it
// played in this browser.

/** How the turn reached the agent: SSE, WebSocket, or spoken (a voice session on the WebSocket). */
const via = (turn) => ({ ws: 'WebSocket', voice: 'WebSocket (voice)' })[turn.transport] ?? 'SSE';
const fmt = (ms) => (ms == null ? '—' : `${Math.round(ms)} ms`);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'style') node.style.cssText = v;
    else node.setAttribute(k, v);
  }
  node.append(...children.filter((c) => c != null));
  return node;
}

function bar(span, from, to, cls, label) {
  if (from == null) return null;
  const end = to ?? from;
  const left = Math.min((from / span) * 100, 99.4);
  const width = Math.min(Math.max(((end - from) / span) * 100, 0.6), 100 - left);
  return el('span', { class: `seg ${cls}`, style: `left:${left}%;width:${width}%`, title: label });
}

/** Summary figures of a turn, as [label, value, title] triples. */
function summary(turn) {
  const first = turn.sentences[0];
  const m = turn.metrics;
  return [
    ['first token', fmt(turn.firstTextAt), 'LLM text starts arriving'],
    ['first audio', fmt(first?.firstAudioAt), 'first audio bytes reach the page'],
    ['first sound', fmt(first?.playStart), 'the browser starts playing'],
    ['total', fmt(turn.doneAt ?? m?.total_ms), 'until the turn was done'],
    ['audio', m ? `${(m.audio_ms / 1000).toFixed(1)} s` : '—', 'length of the spoken answer'],
    ['via', via(turn), 'transport'],
  ];
}

/** A round step for about four ticks across `span` ms. */
function tickStep(span) {
  for (const step of [50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000, 20000, 30000, 60000])
    if (span / step <= 5) return step;
  return 120000;
}

/** Full-width waterfall: one track per sentence (and the LLM's), on a shared time axis. */
function waterfall(turn, span, now) {
  const step = tickStep(span);
  const ticks = [];
  for (let t = 0; t <= span; t += step) ticks.push(t);
  const grid = el('div', { class: 'wf-grid' }, ...ticks.map((t) => el('span', { style: `left:${(t / span) * 100}%` })));
  const axis = el(
    'div',
    { class: 'wf-row wf-axis' },
    el('span', { class: 'wf-label' }, 'ms'),
    el(
      'div',
      { class: 'wf-track' },
      ...ticks.map((t) => el('span', { style: `left:${(t / span) * 100}%` }, t >= 1000 ? `${t / 1000} s` : String(t))),
    ),
  );
  const rows = [
    el(
      'div',
      { class: 'wf-row' },
      el('span', { class: 'wf-label' }, 'LLM'),
      el('div', { class: 'wf-track' }, bar(span, turn.firstTextAt, turn.lastTextAt, 'text', 'LLM writing')),
    ),
    ...(turn.tools ?? []).map((t) =>
      el(
        'div',
        { class: 'wf-row' },
        el('span', { class: 'wf-label', title: `tool ${t.name}` }, 'tool'),
        el('div', { class: 'wf-track' }, bar(span, t.startAt, t.endAt ?? now, 'tool', `tool ${t.name} running`)),
      ),
    ),
    ...turn.sentences.map((s) =>
      el(
        'div',
        { class: `wf-row${s.playStart != null && s.playEnd == null ? ' now' : ''}` },
        el('span', { class: 'wf-label' }, String(s.index + 1)),
        el(
          'div',
          { class: 'wf-track' },
          bar(span, s.textAt, s.textAt, 'tick', 'text complete'),
          bar(span, s.firstAudioAt, s.endAt, 'net', 'audio arriving'),
          bar(span, s.playStart, s.playEnd ?? (s.playStart != null ? now : null), 'play', 'playing'),
        ),
      ),
    ),
  ];
  return el('div', { class: 'waterfall', 'aria-hidden': 'true' }, grid, ...rows, axis);
}

export function renderTimeline(container, turn) {
  const rows = turn.sentences;
  const now = performance.now() - turn.t0;
  const playing = rows.some((s) => s.playStart != null && s.playEnd == null);
  const span = Math.max(
    1,
    playing ? now : 0,
    turn.lastTextAt ?? 0,
    ...(turn.tools ?? []).map((t) => t.endAt ?? t.startAt ?? 0),
    ...rows.map((s) => Math.max(s.endAt ?? 0, s.playEnd ?? s.playStart ?? 0, s.textAt ?? 0)),
  );

  const chips = el('dl', { class: 'chips' });
  for (const [label, value, title] of summary(turn)) {
    chips.append(el('div', { class: 'chip', title }, el('dt', {}, label), el('dd', {}, value)));
  }

  const table = el('table', { class: 'timeline' });
  table.append(
    el('caption', { class: 'sr-only' }, `Timeline of turn ${turn.n}, times in milliseconds since the prompt was sent`),
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, '#'),
        el('th', { scope: 'col' }, 'Sentence'),
        el('th', { scope: 'col', title: 'when its text was complete in the answer' }, 'Text done'),
        el('th', { scope: 'col', title: 'first and last audio bytes of the sentence reaching the page' }, 'Audio in'),
        el('th', { scope: 'col', title: 'model time for this sentence, as the server measured it' }, 'Synthesis'),
        el('th', { scope: 'col' }, 'Playback'),
      ),
    ),
  );
  const body = el('tbody');
  body.append(
    el(
      'tr',
      { class: 'llm' },
      el('th', { scope: 'row' }, 'LLM'),
      el(
        'td',
        { colspan: '5' },
        turn.firstTextAt != null
          ? `writing from ${fmt(turn.firstTextAt)} to ${fmt(turn.lastTextAt)}`
          : turn.error
            ? 'no text: the turn failed'
            : turn.cancelled
              ? 'stopped before the first token'
              : turn.streamEnded
                ? 'no text'
                : 'waiting for the first token',
      ),
    ),
  );
  for (const t of turn.tools ?? []) {
    body.append(
      el(
        'tr',
        { class: 'tool' },
        el('th', { scope: 'row' }, 'tool'),
        el(
          'td',
          { colspan: '5' },
          `${t.name}: ran from ${fmt(t.startAt)} to ${t.endAt == null ? '…' : fmt(t.endAt)}` +
            (t.error ? ` — error: ${t.error}` : ''),
        ),
      ),
    );
  }
  for (const s of rows) {
    body.append(
      el(
        'tr',
        { class: s.playStart != null && s.playEnd == null ? 'now' : '' },
        el('th', { scope: 'row' }, String(s.index + 1)),
        el('td', { class: 'text', title: s.text }, s.filler ? `(filler) ${s.text}` : s.text),
        el('td', {}, fmt(s.textAt)),
        el('td', {}, s.firstAudioAt == null ? '—' : `${fmt(s.firstAudioAt)} → ${fmt(s.endAt)}`),
        el('td', {}, fmt(s.synthesis_ms)),
        el('td', {}, s.playStart == null ? '—' : `${fmt(s.playStart)} → ${fmt(s.playEnd)}`),
      ),
    );
  }
  table.append(body);

  const legend = el(
    'p',
    { class: 'legend', 'aria-hidden': 'true' },
    el('span', {}, el('span', { class: 'key text' }), 'LLM writing'),
    el('span', {}, el('span', { class: 'key tick' }), 'sentence text complete'),
    el('span', {}, el('span', { class: 'key net' }), 'audio arriving'),
    el('span', {}, el('span', { class: 'key play' }), 'playing'),
    ...((turn.tools ?? []).length ? [el('span', {}, el('span', { class: 'key tool' }), 'tool running')] : []),
  );
  const status = turn.error ? el('p', { class: 'turn-error', role: 'alert' }, turn.error) : null;
  container.replaceChildren(chips, waterfall(turn, span, now), legend, table, ...(status ? [status] : []));
}

/** One line per finished turn, newest first, to compare transports. */
export function renderHistory(list, turns) {
  list.replaceChildren(
    ...turns
      .slice()
      .reverse()
      .map((t) => {
        const first = t.sentences[0];
        const how = t.cancelled
          ? `interrupted${t.playedMs == null ? '' : ` after ${(t.playedMs / 1000).toFixed(1)} s of audio`}`
          : t.error
            ? 'failed'
            : 'done';
        return el(
          'li',
          {},
          el('strong', {}, `#${t.n} ${via(t)}`),
          ` first sound ${fmt(first?.playStart)}, first audio ${fmt(first?.firstAudioAt)}, ${t.sentences.length} sentence${t.sentences.length === 1 ? '' : 's'}, ${how}`,
        );
      }),
  );
}
