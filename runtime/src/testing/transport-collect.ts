// What the shared TTS transport suite (transport-suite.ts) runs against and reads: its target, the
// texts, and a session's events collected per utterance, checking they never interleave.
import { expect } from '@jest/globals';
import type { TtsEvent, TtsSession, TtsTransport } from '../tts/types.ts';
import type { CutProxy } from './cut-proxy.ts';

export interface SuiteTarget {
  transport: TtsTransport;
  /** The same transport routed through a proxy that can cut the connection. */
  viaProxy: TtsTransport;
  proxy: CutProxy;
  /** Known sample count per text (the fake peer); absent for the real model. */
  expectedSamples?: (text: string, sampleRate: number) => number;
  close(): Promise<void>;
}

export const SETTINGS = { format: 'pcm_s16le', sample_rate: 24000 } as const;
export const SENTENCES = Array.from(
  { length: 20 },
  (_, i) => `Sentence number ${i + 1} is spoken ${'quite '.repeat(i % 4)}clearly.`,
);

interface Utterance {
  id: string;
  index: number;
  bytes: number;
  samples: number | null;
  starts: number;
}
export interface Collected {
  utterances: Map<string, Utterance>;
  ends: string[];
  errors: TtsEvent[];
  reconnects: string[][];
  events: TtsEvent[];
}

/** Reads events until the iterator ends, checking that utterances never interleave. */
/** onEvent may return 'abandon' to say the open utterance was cancelled (its audio_end never comes). */
export async function collect(
  session: TtsSession,
  onEvent?: (event: TtsEvent) => void | 'abandon',
): Promise<Collected> {
  const result: Collected = { utterances: new Map(), ends: [], errors: [], reconnects: [], events: [] };
  let open: string | null = null;
  const wordEnds = new Map<string, number>();
  for await (const event of session.events()) {
    result.events.push(event);
    if (onEvent?.(event) === 'abandon') {
      open = null;
      continue;
    }
    if (event.type === 'reconnected') {
      // The session splices re-sent audio: the open utterance goes on where it broke off.
      result.reconnects.push(event.resent);
    } else if (event.type === 'error') {
      result.errors.push(event);
    } else if (event.type === 'words') {
      expect(event.id).toBe(open); // a piece's words come with its audio, inside its utterance
      // Each word once, in order, even across a reconnect (the session drops a re-sent rendition's).
      const last = wordEnds.get(event.id) ?? -1;
      expect(event.words[0]!.start).toBeGreaterThan(last);
      wordEnds.set(event.id, event.words.at(-1)!.start);
    } else if (event.type === 'audio_start') {
      expect(open).toBeNull();
      open = event.id;
      const previous = result.utterances.get(event.id);
      result.utterances.set(event.id, {
        id: event.id,
        index: event.index,
        bytes: previous?.bytes ?? 0,
        samples: null,
        starts: (previous?.starts ?? 0) + 1,
      });
    } else if (event.type === 'audio') {
      expect(event.id).toBe(open);
      result.utterances.get(event.id)!.bytes += event.data.byteLength;
    } else {
      expect(event.id).toBe(open);
      open = null;
      result.utterances.get(event.id)!.samples = event.samples;
      result.ends.push(event.id);
    }
  }
  return result;
}
