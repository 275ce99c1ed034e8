// The session's events as LiveKit's SynthesizedAudio: PCM cut into 100 ms frames as it arrives,
// each utterance's frames ending with its own last sample, a segment's last frame marked `final`,
// and timed transcripts riding on the frames.
//
// One frame is held back until the session's next audio or audio_end, so that the words the
// container sends after a piece's audio, and the `final` mark, can go with the frame they belong
// to; the container sends those right after the audio, so the hold costs no time.
import type { TimedString, tts } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import type { TtsEvent } from '@kokoro-speech/runtime/tts';
import { KokoroTtsError, SKIPPABLE, eventError } from './errors.ts';
import { PcmFrames } from './pcm-frames.ts';
import type { Ledger, Utterance } from './ledger.ts';
import { TimedWords } from './spoken-text.ts';

export interface EmitterOptions {
  sampleRate: number;
  /** Timed transcripts wanted (LiveKit's alignedTranscript). */
  words: boolean;
  requestId: string;
  put: (audio: tts.SynthesizedAudio) => void;
  /** An utterance the server refused on its own (the others go on): told, not thrown. */
  skipped: (error: KokoroTtsError) => void;
}

export class FrameEmitter {
  readonly #ledger: Ledger;
  readonly #o: EmitterOptions;
  readonly #byId = new Map<string, Utterance>();
  #bytes: PcmFrames;
  #current: { u: Utterance; words: TimedWords; first: boolean } | null = null;
  #held: { u: Utterance; frame: AudioFrame; delta?: string } | null = null;
  #timed: TimedString[] = [];

  constructor(ledger: Ledger, options: EmitterOptions) {
    this.#ledger = ledger;
    this.#o = options;
    this.#bytes = new PcmFrames(options.sampleRate);
  }

  /** Frames delivered by this attempt. */
  delivered = 0;

  track(u: Utterance): void {
    this.#byId.set(u.id, u);
  }

  /** Handles one event; throws the error that ends the attempt. */
  handle(e: TtsEvent): void {
    switch (e.type) {
      case 'audio': {
        const c = this.#start(e.id);
        for (const frame of this.#bytes.write(e.data)) this.#hold(c, frame);
        return;
      }
      case 'words':
        if (this.#o.words && this.#current?.u.id === e.id) this.#timed.push(...this.#current.words.add(e.words));
        return;
      case 'audio_end':
        return this.#end(e.id, e.samples);
      case 'error': {
        const error = eventError(e.code, e.message, e.id);
        const u = e.id === null ? undefined : this.#byId.get(e.id);
        if (!u || !SKIPPABLE.has(e.code)) throw error;
        this.flush();
        u.state = 'failed';
        this.#current = null;
        this.#bytes = new PcmFrames(this.#o.sampleRate);
        this.#o.skipped(error);
        return;
      }
      default:
        return; // audio_start (the first audio says it), reconnected (the session spliced it)
    }
  }

  /** Puts the held frame out (the attempt ends, or an utterance failed). */
  flush(): void {
    this.#release(false);
  }

  #start(id: string): { u: Utterance; words: TimedWords; first: boolean } {
    if (this.#current?.u.id === id) return this.#current;
    const u = this.#byId.get(id);
    if (!u) throw new KokoroTtsError('bad_response', `audio for utterance ${id}, which this stream did not send`);
    const offsetS = this.#ledger.offsetOf(u) / this.#o.sampleRate;
    this.#current = { u, words: new TimedWords(u.text, offsetS, this.#ledger.utterances[0] === u), first: true };
    return this.#current;
  }

  #end(id: string, samples: number): void {
    const c = this.#current?.u.id === id ? this.#current : null;
    const u = c?.u ?? this.#byId.get(id);
    if (!u) return;
    // The rest of the sentence joins its last words, on the frame they ride on.
    if (this.#o.words && c) this.#timed = c.words.finish(this.#timed, samples / this.#o.sampleRate);
    for (const frame of this.#bytes.flush()) this.#hold(c ?? { u, first: false }, frame);
    u.state = 'done'; // before release: endsSegment() looks at the others
    this.#release(this.#held?.u === u && this.#ledger.endsSegment(u));
    this.#current = null;
  }

  /** The frame before goes out; this one waits (an utterance's first frame names its text). */
  #hold(c: { u: Utterance; first: boolean }, frame: AudioFrame): void {
    this.#release(false);
    this.#held = { u: c.u, frame, ...(c.first && { delta: c.u.text.shown }) };
    c.first = false;
  }

  #release(final: boolean): void {
    const h = this.#held;
    if (!h) return;
    this.#held = null;
    const timed = this.#timed;
    this.#timed = [];
    h.u.samples += h.frame.samplesPerChannel;
    this.delivered++;
    this.#o.put({
      requestId: this.#o.requestId,
      segmentId: h.u.segment.id,
      frame: h.frame,
      final,
      ...(h.delta !== undefined && { deltaText: h.delta }),
      ...(timed.length > 0 && { timedTranscripts: timed }),
    });
  }
}
