// Collects one turn's events into a per-sentence timeline (and the audio, in order), and prints it.
import type { TurnWord } from '@kokoro-speech/protocol';
import type { ClientEvent } from './turn-client.ts';

type Metrics = Extract<ClientEvent, { type: 'metrics' }>;

export interface SentenceTiming {
  id: string;
  index: number;
  text: string;
  /** When the sentence's text was complete, ms since the request (from the agent's text_ms when given). */
  textAt: number;
  /** The agent's own figure, on its turn clock. */
  textMs: number | null;
  firstAudioAt: number | null;
  /** When its `sentence_end` arrived. */
  endAt: number | null;
  audioBytes: number;
  /** Its audio chunks as they came (PCM bytes, or Opus records). */
  chunks: Uint8Array[];
  duration_ms: number | null;
  synthesis_ms: number | null;
  /** Its words with times on the turn's audio clock (when asked for with `words: true`). */
  words: TurnWord[];
  wordsEstimated: boolean | null;
}

export class TurnRecorder {
  sampleRate: number | null = null;
  format: string | null = null;
  /** With format "opus": samples per frame and the decoder's lookahead. */
  opus: { frame_samples: number; pre_skip: number; bitrate: number } | null = null;
  requestId: string | null = null;
  firstTextAt: number | null = null;
  /** When the start event arrived: the agent's turn clock (text_ms) starts here. */
  startAt = 0;
  text = '';
  textEvents = 0;
  readonly sentences: SentenceTiming[] = [];
  readonly audio: Uint8Array[] = [];
  metrics: Metrics | null = null;
  readonly errors: { code: string; message: string }[] = [];
  /** Tool calls, as their `tool` events said (ended ones with their duration and any error). */
  readonly tools: { id: string; name: string; startedMs: number; durationMs: number | null; error?: string }[] = [];
  sessionId: string | null = null;
  done = false;
  /** A voice turn: what the agent heard the customer say (the final transcript). */
  heard: string | null = null;

  add(event: ClientEvent): void {
    switch (event.type) {
      case 'start':
        this.sampleRate = event.sample_rate;
        this.format = event.format;
        this.opus = event.opus ?? null;
        this.requestId = event.request_id;
        this.sessionId = event.session_id ?? null;
        this.startAt = event.at;
        break;
      case 'tool': {
        const known = this.tools.find((t) => t.id === event.id);
        const entry = known ?? { id: event.id, name: event.name, startedMs: event.started_ms, durationMs: null };
        if (!known) this.tools.push(entry);
        if (event.state === 'ended') {
          entry.durationMs = event.duration_ms ?? null;
          if (event.error !== undefined) entry.error = event.error;
        }
        break;
      }
      case 'text':
        this.firstTextAt ??= event.at;
        this.text += event.delta;
        this.textEvents += 1;
        break;
      case 'sentence':
        this.sentences.push({
          id: event.id,
          index: event.index,
          text: event.text,
          // text_ms: when the piece was complete in the answer (the event comes when its audio starts).
          textAt: event.text_ms === undefined ? event.at : event.text_ms + this.startAt,
          textMs: event.text_ms ?? null,
          firstAudioAt: null,
          endAt: null,
          audioBytes: 0,
          chunks: [],
          duration_ms: null,
          synthesis_ms: null,
          words: [],
          wordsEstimated: null,
        });
        break;
      case 'audio': {
        const s = this.#sentence(event.id);
        s.firstAudioAt ??= event.at;
        s.audioBytes += event.data.byteLength;
        s.chunks.push(event.data);
        this.audio.push(event.data);
        break;
      }
      case 'words': {
        const s = this.#sentence(event.id);
        s.words.push(...event.words);
        s.wordsEstimated = event.estimated;
        break;
      }
      case 'sentence_end': {
        const s = this.#sentence(event.id);
        s.endAt = event.at;
        s.duration_ms = event.duration_ms;
        s.synthesis_ms = event.synthesis_ms;
        break;
      }
      case 'metrics': {
        this.metrics = event;
        // Where the agent's clock starts, as seen here: delivery delays only ever add, so take the
        // smallest offset any event with an agent time gives (start at 0, the first text at first_token_ms).
        const offset = Math.min(
          this.startAt,
          event.first_token_ms !== null && this.firstTextAt !== null
            ? this.firstTextAt - event.first_token_ms
            : Infinity,
        );
        for (const s of this.sentences) if (s.textMs !== null) s.textAt = s.textMs + offset;
        break;
      }
      case 'transcript':
        if (event.final) this.heard = event.text;
        break;
      case 'error':
        this.errors.push({ code: event.code, message: event.message });
        break;
      case 'done':
        this.done = true;
        break;
    }
  }

  get audioBytes(): number {
    return this.audio.reduce((n, c) => n + c.byteLength, 0);
  }

  #sentence(id: string): SentenceTiming {
    const s = this.sentences.find((x) => x.id === id);
    if (!s) throw new Error(`event for unknown sentence ${id}`);
    return s;
  }
}

const ms = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${Math.round(v)} ms`);

/** A plain-text table: one row per sentence, then the metrics event. */
export function formatTimeline(t: TurnRecorder): string {
  const lines = t.heard === null ? [] : [`heard           ${JSON.stringify(t.heard)}`];
  lines.push(`first text      ${ms(t.firstTextAt)}`);
  lines.push(' #  text done  first audio  synthesis  audio len  text');
  for (const s of t.sentences) {
    const text = s.text.length > 60 ? `${s.text.slice(0, 57)}...` : s.text;
    lines.push(
      `${String(s.index).padStart(2)}  ${ms(s.textAt).padStart(9)}  ${ms(s.firstAudioAt).padStart(11)}  ` +
        `${ms(s.synthesis_ms).padStart(9)}  ${ms(s.duration_ms).padStart(9)}  ${JSON.stringify(text)}`,
    );
  }
  if (t.metrics) {
    const { at: _at, type: _type, ...m } = t.metrics;
    lines.push(`metrics ${JSON.stringify(m)}`);
  }
  for (const tool of t.tools)
    lines.push(
      `tool ${tool.name} at ${ms(tool.startedMs)} (agent clock), took ${ms(tool.durationMs)}${tool.error ? `: error ${tool.error}` : ''}`,
    );
  for (const e of t.errors) lines.push(`error ${e.code}: ${e.message}`);
  return lines.join('\n');
}
