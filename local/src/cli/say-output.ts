// What `npm run say` writes from a recorded turn: the audio (WAV from PCM or decoded Opus, or an
// Ogg Opus file of the packets as they came) and WebVTT captions on that file's own timeline.
import { OggOpusWriter, OpusScriptDecoder, unpackOpusRecords, type OpusRate } from '@kokoro-speech/protocol/audio';
import { webVtt } from '../caller/captions.ts';
import type { TurnRecorder } from '../caller/timeline.ts';
import { encodeWav } from '../caller/wav.ts';

export interface SayOutput {
  audio: Buffer;
  /** Samples the file plays, at the stream's rate. */
  samples: number;
  kind: 'wav' | 'ogg';
  captions: string;
}

export function sayOutput(recorder: TurnRecorder, kind: 'wav' | 'ogg'): SayOutput {
  const rate = recorder.sampleRate!;
  if (recorder.format !== 'opus') {
    if (kind === 'ogg') throw new Error('an Ogg Opus file needs an Opus turn (--format opus)');
    const samples = recorder.audioBytes / 2;
    return { audio: encodeWav(rate, recorder.audio), samples, kind, captions: webVtt(recorder.sentences) };
  }
  const frame = recorder.opus?.frame_samples ?? (rate * 20) / 1000;
  const preSkip = recorder.opus?.pre_skip ?? 0;
  const sentences = recorder.sentences.map((s) => ({ s, records: s.chunks.flatMap((c) => unpackOpusRecords(c)) }));
  if (kind === 'wav') {
    const decoder = new OpusScriptDecoder(rate as OpusRate);
    const pcm = sentences.map(({ records }) => decoder.decode(records));
    decoder.close();
    return {
      audio: encodeWav(rate, pcm),
      samples: pcm.reduce((n, p) => n + p.length / 2, 0),
      kind,
      captions: webVtt(recorder.sentences),
    };
  }
  // Ogg keeps every decoded sample but the pre-skip and the end: each sentence's padding to a whole
  // frame stays in as a little silence, so its captions move by what came before it.
  const ogg = new OggOpusWriter(rate, preSkip, frame);
  let decoded = 0; // Ogg timeline: samples of the packets before this sentence
  let played = 0; // turn clock: real samples before this sentence
  let end = 0;
  const captions = [];
  for (const { s, records } of sentences) {
    captions.push({ words: s.words, offsetMs: ((decoded - played) / rate) * 1000 });
    const real = records.reduce((n, r) => n + r.keep, 0);
    for (const r of records) ogg.add(r.packet);
    end = decoded + real;
    decoded += records.length * frame;
    played += real;
  }
  return { audio: ogg.finish(end), samples: end, kind, captions: webVtt(captions) };
}
