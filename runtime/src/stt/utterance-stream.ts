// The SttStream of every utterance provider (an OpenAI-compatible server, the local model, the
// offline stand-in): it keeps the audio from the VAD's speechStart to its speechEnd and hands each
// utterance, in order, to the provider's transcribe function; each answer is one `final`. Everything
// it holds is bounded: a little audio before the onset (the VAD reports an onset after it has heard
// enough speech, at the sample where speech began), one utterance of at most maxUtteranceSeconds
// (a longer one is cut there and goes on as the next), and a few utterances awaiting transcription.
import { EventQueue } from '../tts/types.ts';
import { asSttError, SttError } from './errors.ts';
import { STT_SAMPLE_RATE, type SttEvent, type SttStream, type SttStreamOptions } from './types.ts';

export interface UtteranceContext {
  language: SttStreamOptions['language'];
  voice?: string;
  /** Aborted when the stream closes: stop and throw. */
  signal: AbortSignal;
}

/** One utterance (16 kHz mono s16le) to its words; throws an SttError when the provider fails. */
export type TranscribeUtterance = (pcm: Int16Array, context: UtteranceContext) => Promise<string>;

export interface UtteranceLimits {
  /** Longest utterance sent at once (default 30 s: Whisper's window). */
  maxUtteranceSeconds?: number;
  /** Audio kept before an onset (default 1.5 s: covers the VAD's minimum speech and its lag). */
  preRollSeconds?: number;
  /** Utterances waiting for the provider before the stream fails (default 4). */
  maxPending?: number;
}

export function openUtteranceStream(
  provider: string,
  transcribe: TranscribeUtterance,
  options: SttStreamOptions,
  limits: UtteranceLimits = {},
): SttStream {
  const maxUtterance = Math.round((limits.maxUtteranceSeconds ?? 30) * STT_SAMPLE_RATE);
  const preRoll = Math.round((limits.preRollSeconds ?? 1.5) * STT_SAMPLE_RATE);
  const maxPending = limits.maxPending ?? 4;
  const events = new EventQueue<SttEvent>();
  const abort = new AbortController();
  // Audio held: `held` starts at absolute sample `heldFrom`; `written` counts every sample so far.
  let held: Int16Array[] = [];
  let heldFrom = 0;
  let heldLength = 0;
  let written = 0;
  let utteranceFrom: number | null = null;
  let pending = 0;
  let chain = Promise.resolve();
  let ended = false;
  let closed = false;

  const context: UtteranceContext = {
    language: options.language,
    ...(options.voice ? { voice: options.voice } : {}),
    signal: abort.signal,
  };

  function fail(error: unknown): void {
    if (closed) return;
    events.push(asSttError(error, provider).toEvent());
    close();
  }

  function close(): void {
    if (closed) return;
    closed = true;
    abort.abort();
    held = [];
    heldLength = 0;
    events.finish();
  }
  options.signal?.addEventListener('abort', close, { once: true });
  if (options.signal?.aborted) close();

  /** The held audio from absolute sample `from` to `to` (clamped to what is held). */
  function slice(from: number, to: number): Int16Array {
    const all = new Int16Array(heldLength);
    let at = 0;
    for (const chunk of held) (all.set(chunk, at), (at += chunk.length));
    return all.slice(Math.max(0, from - heldFrom), Math.max(0, to - heldFrom));
  }

  /** Drops held audio before `keepFrom`. */
  function trim(keepFrom: number): void {
    while (held.length > 0 && heldFrom + held[0]!.length <= keepFrom) {
      heldFrom += held[0]!.length;
      heldLength -= held.shift()!.length;
    }
  }

  function cut(to: number): void {
    if (utteranceFrom === null) return;
    const pcm = slice(utteranceFrom, to);
    utteranceFrom = null;
    trim(Math.max(to, written - preRoll));
    if (pcm.length === 0) return;
    if (pending >= maxPending) {
      fail(
        new SttError('stt_timeout', `${provider}: cannot keep up (${pending} utterances waiting to be transcribed)`),
      );
      return;
    }
    pending++;
    chain = chain.then(async () => {
      if (closed) return;
      try {
        const text = await transcribe(pcm, context);
        if (!closed) events.push({ type: 'final', text: text.trim(), endSample: to });
      } catch (error) {
        fail(error);
      } finally {
        pending--;
      }
    });
  }

  return {
    events,
    write(pcm) {
      if (closed || ended || pcm.length === 0) return;
      held.push(pcm.slice());
      heldLength += pcm.length;
      written += pcm.length;
      if (utteranceFrom === null) trim(written - preRoll);
      else if (written - utteranceFrom >= maxUtterance) {
        // Too long for one request: send what is here, the rest is the next utterance.
        const at = utteranceFrom + maxUtterance;
        cut(at);
        utteranceFrom = at;
      }
    },
    speechStart(sample) {
      if (closed || ended || utteranceFrom !== null) return;
      utteranceFrom = Math.max(sample, heldFrom);
    },
    speechEnd(sample) {
      if (closed || ended) return;
      cut(Math.min(Math.max(sample, utteranceFrom ?? 0), written));
    },
    end() {
      if (closed || ended) return;
      ended = true;
      cut(written);
      void chain.then(() => close());
    },
    close,
  };
}
