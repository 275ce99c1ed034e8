// LiveKit's one-shot TTS (tts.synthesize(text)): the text cut into sentences, all sent at once
// (pipelined), frames out as the audio arrives, the last one `final`.
import { shortuuid, tts } from '@livekit/agents';
import type { APIConnectOptions } from '@livekit/agents';
import { runAttempt } from './attempt.ts';
import { fillLedger } from './feed.ts';
import { Ledger } from './ledger.ts';
import type { StreamSettings } from './stream-settings.ts';

export class ChunkedStream extends tts.ChunkedStream {
  label = 'kokoro.ChunkedStream';
  readonly #settings: StreamSettings;

  constructor(
    owner: tts.TTS,
    text: string,
    settings: StreamSettings,
    connOptions?: APIConnectOptions,
    abortSignal?: AbortSignal,
  ) {
    if (typeof text !== 'string') throw new TypeError(`Kokoro TTS: synthesize() takes a string, got ${typeof text}`);
    super(text, owner, connOptions, abortSignal);
    this.#settings = settings;
  }

  /** After close() nothing more, not even frames LiveKit's base class had queued. */
  override next(): Promise<IteratorResult<tts.SynthesizedAudio>> {
    if (this.abortSignal.aborted) return Promise.resolve({ done: true, value: undefined });
    return super.next();
  }

  protected async run(): Promise<void> {
    // Each attempt starts over: LiveKit gives it a fresh queue, and it may be rerun only when the
    // one before delivered nothing.
    const ledger = new Ledger();
    fillLedger(ledger, this.inputText, this.#settings);
    const requestId = shortuuid();
    await runAttempt({
      ...this.#settings,
      ledger,
      signal: this.abortSignal,
      requestId,
      resumes: false,
      put: (audio) => {
        if (!this.abortSignal.aborted && !this.queue.closed) this.queue.put(audio);
      },
      sending: () => {},
    });
  }
}
