// Texts for the tests and what they become: the sentences the project's segmenter cuts, what the
// plugin sends for them, LiveKit's chunked input pattern, and small readers of what came back.
import { ReadableStream } from 'node:stream/web';
import type { tts } from '@livekit/agents';
import { SentenceSegmenter } from '@kokoro-speech/runtime/text';
import { spokenText } from '../spoken-text.ts';

export const ANSWER =
  'Sure, I can help with that today. The first thing to know is that it runs on SageMaker! ' +
  'Does it stream? It does, sentence by sentence.';

/** The sentences the project's segmenter cuts from a text (decisions do not depend on the deltas). */
export function sentences(text: string): string[] {
  const s = new SentenceSegmenter();
  return [...s.push(text), ...s.flush()];
}

/** What the plugin sends for each sentence (English voices are normalised). */
export const spoken = (texts: string[]): string[] => texts.map((t) => spokenText(t, true).spoken);

/** LiveKit's plugin test pattern: the text in chunks of 1, 2 and 4 characters. */
export function chunked(text: string): ReadableStream<string> {
  const chunks: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const size = [1, 2, 4][k % 3]!;
    chunks.push(text.slice(i, i + size));
    i += size;
  }
  return new ReadableStream<string>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
}

/** What the TTS's `error` event carries. */
export type TtsErrorEvent = Parameters<tts.TTSCallbacks['error']>[0];

export const samples = (audio: readonly tts.SynthesizedAudio[]): number =>
  audio.reduce((n, a) => n + a.frame.samplesPerChannel, 0);

/** Each sentence's text, from the first frame of each (its deltaText). */
export const sentencesOf = (audio: readonly tts.SynthesizedAudio[]): string[] =>
  audio.flatMap((a) => (a.deltaText === undefined ? [] : [a.deltaText]));
