// The caller's microphone frames (binary WebSocket frames during a voice session: docs/contracts/
// turn.md, "Voice sessions"): checked against the declared input, paced against the wall clock.
// A frame that cannot be the declared PCM is refused with what it looks like instead; audio that
// runs too far ahead of real time is refused rather than queued, so a session holds a bounded
// amount of audio whatever the caller sends.
import type { VoiceInput } from '@kokoro-speech/protocol';

export interface AudioRefusal {
  code: 'audio_format' | 'audio_too_fast' | 'audio_frame_too_large';
  message: string;
  /** What is wrong (a run of frames wrong the same way is told once). */
  kind: string;
}

/** Magic numbers of what a caller might send instead of raw samples. */
const CONTAINERS: readonly [string, string][] = [
  ['RIFF', 'a WAV (RIFF) file'],
  ['OggS', 'an Ogg stream'],
  ['fLaC', 'a FLAC stream'],
  ['ID3', 'an MP3 file'],
  ['\x1aE\xdf\xa3', 'a WebM/Matroska stream'],
];

function looksLike(frame: Buffer): string | undefined {
  const head = frame.subarray(0, 4).toString('latin1');
  const container = CONTAINERS.find(([magic]) => head.startsWith(magic));
  if (container) return container[1];
  if (frame[0] === 0x7b && frame.at(-1) === 0x7d) {
    try {
      JSON.parse(frame.toString('utf8'));
      return 'a JSON message (during a voice session, send messages as text frames)';
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export class UpstreamAudio {
  readonly #input: VoiceInput;
  readonly #maxFrameBytes: number;
  readonly #maxAheadMs: number;
  readonly #startedAt: number;
  readonly #now: () => number;
  /** Samples taken so far (the session's audio clock). */
  samples = 0;

  constructor(input: VoiceInput, limits: { maxFrameBytes: number; maxAheadMs: number }, now = () => performance.now()) {
    this.#input = input;
    this.#maxFrameBytes = limits.maxFrameBytes;
    this.#maxAheadMs = limits.maxAheadMs;
    this.#now = now;
    this.#startedAt = now();
  }

  /** The frame's samples, or why it is refused (nothing of a refused frame is kept). */
  take(frame: Buffer): Int16Array | AudioRefusal {
    const declared = `${this.#input.format} at ${this.#input.sample_rate} Hz mono`;
    if (frame.length > this.#maxFrameBytes)
      return {
        kind: 'large',
        code: 'audio_frame_too_large',
        message: `an audio frame of ${frame.length} bytes is over the ${this.#maxFrameBytes}-byte frame limit`,
      };
    const other = looksLike(frame);
    if (other)
      return { kind: other, code: 'audio_format', message: `got ${other}; this session declared raw ${declared}` };
    if (frame.length % 2 !== 0)
      return {
        kind: 'odd',
        code: 'audio_format',
        message: `a frame of ${frame.length} bytes is not whole 16-bit samples; this session declared ${declared}`,
      };
    const count = frame.length / 2;
    const aheadMs = ((this.samples + count) * 1000) / this.#input.sample_rate - (this.#now() - this.#startedAt);
    if (aheadMs > this.#maxAheadMs)
      return {
        kind: 'fast',
        code: 'audio_too_fast',
        message: `audio is arriving ${Math.round(aheadMs)} ms ahead of real time (at most ${this.#maxAheadMs} ms); frames are dropped until it slows down`,
      };
    // A copy: the socket's buffer is not ours to keep, and Int16Array needs 2-byte alignment.
    const pcm = new Int16Array(count);
    for (let i = 0; i < count; i++) pcm[i] = frame.readInt16LE(i * 2);
    this.samples += count;
    return pcm;
  }
}
