// The session's events to LiveKit's frames, event by event: the one frame held back, `final` only
// when the segment is known to end there, the sentence's name on its first frame even when it is
// shorter than a frame, words on the frame after their audio, a refused sentence skipped.
import { describe, expect, test } from '@jest/globals';
import type { tts } from '@livekit/agents';
import type { TtsEvent } from '@kokoro-speech/runtime/tts';
import type { KokoroTtsError } from './errors.ts';
import { FrameEmitter } from './frame-emitter.ts';
import { Ledger } from './ledger.ts';
import { spokenText } from './spoken-text.ts';

function setUp(words = true) {
  const ledger = new Ledger();
  const out: tts.SynthesizedAudio[] = [];
  const skipped: KokoroTtsError[] = [];
  const emitter = new FrameEmitter(ledger, {
    sampleRate: 24000,
    words,
    requestId: 'r1',
    put: (a) => out.push(a),
    skipped: (e) => skipped.push(e),
  });
  const add = (text: string) => {
    const u = ledger.add(spokenText(text, false));
    emitter.track(u);
    return u;
  };
  return { ledger, emitter, out, skipped, add };
}

const audio = (id: string, samples: number): TtsEvent => ({
  type: 'audio',
  id,
  index: 0,
  data: new Uint8Array(samples * 2),
});
const end = (id: string, samples: number): TtsEvent => ({
  type: 'audio_end',
  id,
  index: 0,
  samples,
  duration_ms: samples / 24,
  synthesis_ms: 1,
  queue_ms: 1,
});

describe('FrameEmitter', () => {
  test('one frame waits for the next event; the last of a closed segment is final', () => {
    const { ledger, emitter, out, add } = setUp();
    const u = add('Hello there.');
    emitter.handle(audio(u.id, 5000)); // two whole frames, 200 samples carried
    expect(out.map((a) => a.frame.samplesPerChannel)).toEqual([2400]); // the second waits
    expect(out[0]).toMatchObject({ requestId: 'r1', segmentId: u.segment.id, final: false, deltaText: 'Hello there.' });
    ledger.closeSegment(); // flush() before the sentence ends
    emitter.handle(end(u.id, 5000));
    expect(out.map((a) => [a.frame.samplesPerChannel, a.final])).toEqual([
      [2400, false],
      [2400, false],
      [200, true],
    ]);
    expect(u).toMatchObject({ state: 'done', samples: 5000 });
  });

  test('a segment still open at the sentence end: nothing is held for a final mark that may not come', () => {
    const { emitter, out, add } = setUp();
    const u = add('Still writing.');
    emitter.handle(audio(u.id, 2400));
    emitter.handle(end(u.id, 2400));
    expect(out.map((a) => [a.frame.samplesPerChannel, a.final])).toEqual([[2400, false]]);
  });

  test('a sentence shorter than a frame still names itself on its frame', () => {
    const { ledger, emitter, out, add } = setUp(false);
    const u = add('Oh.');
    ledger.end();
    emitter.handle(audio(u.id, 1000));
    emitter.handle(end(u.id, 1000));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ deltaText: 'Oh.', final: true });
    expect(out[0]!.frame.samplesPerChannel).toBe(1000);
  });

  test("words ride on the frame after their audio; the next sentence's times count from the first's end", () => {
    const { emitter, out, add } = setUp();
    const one = add('One two.');
    const two = add('Three.');
    emitter.handle(audio(one.id, 4800));
    emitter.handle({
      type: 'words',
      id: one.id,
      index: 0,
      estimated: false,
      words: [
        { text: 'One', start: 0, end: 3, start_ms: 0, end_ms: 90 },
        { text: 'two', start: 4, end: 7, start_ms: 100, end_ms: 190 },
      ],
    });
    emitter.handle(end(one.id, 4800));
    emitter.handle(audio(two.id, 2400));
    emitter.handle({
      type: 'words',
      id: two.id,
      index: 1,
      estimated: false,
      words: [{ text: 'Three', start: 0, end: 5, start_ms: 10, end_ms: 80 }],
    });
    emitter.handle(end(two.id, 2400));
    const timed = out.flatMap((a) => (a.timedTranscripts ?? []).map((t) => [t.text, t.startTime]));
    expect(timed).toEqual([
      ['One', 0],
      [' two.', 0.1],
      [' Three.', 0.2 + 0.01],
    ]);
  });

  test('a sentence the server refuses on its own is skipped and told; an error of the session throws', () => {
    const { emitter, out, skipped, add } = setUp();
    const u = add('Too long.');
    const next = add('Spoken.');
    emitter.handle({ type: 'error', id: u.id, code: 'text_too_long', message: 'over 5000 characters' });
    expect(u.state).toBe('failed');
    expect(skipped.map((e) => e.code)).toEqual(['text_too_long']);
    emitter.handle(audio(next.id, 2400));
    emitter.handle(end(next.id, 2400));
    expect(out.map((a) => a.deltaText)).toEqual(['Spoken.']);
    expect(() => emitter.handle({ type: 'error', id: null, code: 'unknown_voice', message: 'no voice zz' })).toThrow(
      'the session failed with unknown_voice: no voice zz',
    );
  });
});
