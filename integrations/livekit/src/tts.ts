// Kokoro TTS for LiveKit Agents: a tts.TTS over this project's TTS session layer, speaking into a
// Kokoro endpoint on SageMaker (bidirectional stream, SigV4) or a Kokoro container over WebSocket.
import { tts } from '@livekit/agents';
import type { APIConnectOptions } from '@livekit/agents';
import { SageMakerBidiTransport, WebSocketTransport } from '@kokoro-speech/runtime/tts';
import type { TransportConfig, TtsTransport } from '@kokoro-speech/runtime/tts';
import { ChunkedStream } from './chunked-stream.ts';
import { checkVoiceOptions, resolveOptions } from './options.ts';
import type { ResolvedOptions, TTSOptions } from './options.ts';
import { streamSettings } from './stream-settings.ts';
import { SynthesizeStream } from './synthesize-stream.ts';

/** The two transports of protocol v1 (not the runtime's factory: it brings the response-stream
 *  call and its AWS SDK client, which this plugin never uses). */
function transport(config: TransportConfig): TtsTransport {
  if (config.kind === 'websocket') return new WebSocketTransport(config);
  if (config.kind === 'sagemaker-bidi') return new SageMakerBidiTransport(config);
  throw new TypeError(`no ${config.kind} transport here`);
}

export class TTS extends tts.TTS {
  label = 'kokoro.TTS';
  #options: ResolvedOptions;
  readonly #transport: TtsTransport;
  readonly #streams = new Set<SynthesizeStream>();

  /**
   * `new TTS({ endpointName, region, voice })` for a SageMaker endpoint; `new TTS({ url, voice })`
   * for a container run by hand. Bad options throw a TypeError naming the option.
   */
  constructor(options: TTSOptions = {}) {
    const resolved = resolveOptions(options);
    super(resolved.sampleRate, 1, { streaming: true, alignedTranscript: resolved.wordTimestamps });
    this.#options = resolved;
    try {
      this.#transport = transport(resolved.transport);
    } catch (error) {
      throw new TypeError(`Kokoro TTS: ${(error as Error).message}`, { cause: error });
    }
  }

  override get model(): string {
    return 'Kokoro-82M';
  }

  override get provider(): string {
    return 'Kokoro';
  }

  /** The endpoint the streams speak into: `sagemaker:REGION/NAME` or the container's URL. */
  get endpoint(): string {
    return this.#options.endpoint;
  }

  /** The voice, speed and language of the streams opened from now on (a new language without a
   *  voice picks that language's default voice). */
  updateOptions(options: { voice?: string; speed?: number; language?: string }): void {
    const c = this.#options;
    const voice = options.voice ?? (options.language === undefined ? c.voice : undefined);
    const language = options.language ?? c.language;
    this.#options = { ...c, ...checkVoiceOptions({ voice, speed: options.speed ?? c.speed, language }) };
  }

  synthesize(text: string, connOptions?: APIConnectOptions, abortSignal?: AbortSignal): ChunkedStream {
    return new ChunkedStream(this, text, this.#settings(), connOptions, abortSignal);
  }

  stream(options?: { connOptions?: APIConnectOptions }): SynthesizeStream {
    const stream = new SynthesizeStream(this, this.#settings(), options?.connOptions, () =>
      this.#streams.delete(stream),
    );
    this.#streams.add(stream);
    return stream;
  }

  /** Closes every stream still open (their sessions with them). Idempotent. */
  override async close(): Promise<void> {
    for (const stream of [...this.#streams]) stream.close();
    this.#streams.clear();
  }

  #settings() {
    return streamSettings(this, this.#options, this.#transport);
  }
}
