// LiveKit's streaming TTS (tts.stream()): text pushed as the LLM writes it, each sentence sent to
// Kokoro the moment it is complete, frames out as the audio arrives; flush() ends a segment,
// endInput() the stream, close() cancels it (barge-in: nothing of it is delivered after).
import { shortuuid, tts } from '@livekit/agents';
import type { APIConnectOptions, metrics } from '@livekit/agents';
import { runAttempt } from './attempt.ts';
import { InputEndedError, KokoroTtsError, toApiError } from './errors.ts';
import { createFeed } from './feed.ts';
import type { Feed } from './feed.ts';
import { Ledger } from './ledger.ts';
import { SegmentMarks } from './segment-marks.ts';
import type { StreamSettings } from './stream-settings.ts';

export class SynthesizeStream extends tts.SynthesizeStream {
  label = 'kokoro.SynthesizeStream';
  readonly #settings: StreamSettings;
  readonly #ledger = new Ledger();
  readonly #feed: Feed;
  readonly #marks = new SegmentMarks((at) => this.markStarted(at));
  readonly #requestIds = new Set<string>();
  readonly #owner: tts.TTS;
  /** Segments whose final frame is queued, in order: LiveKit reports each at that frame. */
  readonly #finals: string[] = [];
  readonly #onMetrics = (m: metrics.TTSMetrics) => {
    if (this.#requestIds.has(m.requestId)) this.#marks.reported(this.#finals.shift());
  };
  #pumping = false;
  #inputEnded = false;
  /** Why the input side failed (the pump or the tokenizer): the stream ends with it. */
  #inputError: unknown = undefined;

  readonly #done: () => void;

  /** `done`: called once when the stream has finished (closed, failed or all spoken). */
  constructor(owner: tts.TTS, settings: StreamSettings, connOptions?: APIConnectOptions, done: () => void = () => {}) {
    super(owner, connOptions);
    this.#settings = settings;
    this.#done = done;
    this.#owner = owner;
    owner.on('metrics_collected', this.#onMetrics);
    this.#feed = createFeed(this.#ledger, { ...settings, onError: (error) => this.#inputFailed(error) });
    this.abortSignal.addEventListener('abort', () => this.#feed.close(), { once: true });
  }

  /** Throws after endInput(): LiveKit's base class would drop the text without a word. */
  override pushText(text: string): void {
    if (this.#inputEnded && !this.abortSignal.aborted) throw new InputEndedError('pushText');
    if (typeof text !== 'string') throw new TypeError(`Kokoro TTS: pushText() takes a string, got ${typeof text}`);
    super.pushText(text);
  }

  override flush(): void {
    if (this.#inputEnded && !this.abortSignal.aborted) throw new InputEndedError('flush');
    super.flush();
  }

  /** After close() nothing more, not even frames LiveKit's base class had queued (barge-in). */
  override next(): Promise<IteratorResult<tts.SynthesizedAudio | typeof tts.SynthesizeStream.END_OF_STREAM>> {
    if (this.abortSignal.aborted) return Promise.resolve({ done: true, value: undefined });
    return super.next();
  }

  /** Idempotent: the second call has nothing to end. */
  override endInput(): void {
    if (this.#inputEnded) return;
    super.endInput();
    this.#inputEnded = true;
  }

  protected override onStreamDone(): void {
    this.#owner.off('metrics_collected', this.#onMetrics);
    this.#done();
  }

  protected async run(): Promise<void> {
    this.#pump();
    const requestId = shortuuid();
    this.#requestIds.add(requestId);
    await runAttempt({
      ...this.#settings,
      ledger: this.#ledger,
      signal: this.abortSignal,
      requestId,
      resumes: true,
      put: (audio) => {
        if (this.abortSignal.aborted || this.queue.closed) return;
        if (audio.final) this.#finals.push(audio.segmentId);
        this.queue.put(audio);
      },
      skipped: this.#settings.skipped,
      sending: (u) => {
        this.#marks.sent(u.segment);
        this.noteProviderRequestId(u.id);
      },
    });
    if (this.#inputError !== undefined && !this.abortSignal.aborted) {
      // LiveKit's base class reports it (the TTS's `error` event) and ends the stream.
      const message = `the text input failed: ${this.#inputError instanceof Error ? this.#inputError.message : String(this.#inputError)}`;
      throw toApiError(new KokoroTtsError('input_failed', message, { cause: this.#inputError }), true);
    }
    if (!this.abortSignal.aborted && !this.queue.closed) this.queue.put(tts.SynthesizeStream.END_OF_STREAM);
  }

  /** The first input failure ends the input: what is queued is spoken, then run() fails with it. */
  #inputFailed(error: unknown): void {
    this.#inputError ??= error;
    this.#feed.close();
  }

  /** The input side lives across LiveKit's attempts: what one attempt read, the next still speaks. */
  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    void (async () => {
      for await (const data of this.input) {
        if (data === SynthesizeStream.FLUSH_SENTINEL) this.#feed.flush();
        else this.#feed.push(data);
      }
      if (this.abortSignal.aborted) this.#feed.close();
      else this.#feed.end();
    })().catch((error: unknown) => this.#inputFailed(error));
  }
}
