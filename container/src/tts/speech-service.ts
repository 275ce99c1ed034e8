// What every session and request shares: the engine, the scheduler, the limits and the load count.
import { availableParallelism } from 'node:os';
import type { Engine } from '../engine/types.ts';
import type { LanguageCode } from '../engine/languages.ts';
import type { Logger } from '@kokoro-speech/protocol/server';
import type { ServerConfig } from '../config.ts';
import type { AudioFormat, SampleRate, VoiceSettings } from '@kokoro-speech/protocol';
import {
  blendLanguageVoice,
  isSpoken,
  isVoiceBlend,
  parseVoiceBlend,
  unspokenMessage,
  VoiceBlendError,
  voiceLanguage,
} from '@kokoro-speech/protocol';
import { AudioDurationEstimator, Scheduler, type SchedulingPolicy } from '../scheduler/index.ts';
import { AdmissionController, type Backlog, type LoadSource } from '../admission/index.ts';
import { SpeechError } from './errors.ts';
import type { Lexicon } from '../pronunciation/lexicon.ts';
import { spokenText } from '../pronunciation/spoken.ts';
import type { SpokenText } from './spoken-text.ts';
import type { UtteranceSpans } from '../observability/utterance-spans.ts';

/** Settings in force for an utterance (all resolved). */
export interface Settings {
  voice: string;
  speed: number;
  format: AudioFormat;
  /** Requested rate; the rate sent is 8000 for mulaw and alaw whatever this says. */
  sampleRate: SampleRate;
  /** The language the text is read in when not the voice's own (Kokoro-FastAPI's lang_code). */
  language?: LanguageCode;
}

/** A stream whose queued audio the admission rule reads (UtteranceStream). */
export interface BacklogReporter {
  backlog(): Backlog;
}

export class SpeechService implements LoadSource {
  readonly engine: Engine;
  readonly config: ServerConfig;
  readonly log: Logger;
  /** Model runs. */
  readonly scheduler: Scheduler;
  /**
   * Text preparation (worker threads), ordered the same way: a session's first sentence is not
   * prepared behind other sessions' long answers. As many in flight as there are prep workers.
   */
  readonly prepScheduler: Scheduler;
  readonly estimator = new AudioDurationEstimator();
  /** Utterances accepted and not yet finished, over all sessions and requests. */
  pendingTotal = 0;
  /** Set on shutdown: no new work is accepted. */
  draining = false;
  /** Records each utterance's trace spans when tracing is on (OTEL_*); null: off. */
  spans: UtteranceSpans | null = null;
  /** Decides whether one more session or request fits (container/README.md, Admission control). */
  readonly admission: AdmissionController;
  /** The deployment's lexicon (KOKORO_LEXICON), applied to every text. */
  readonly lexicon: Lexicon | undefined;
  readonly #streams = new Set<BacklogReporter>();
  #modelMsPerAudioMs = 0;
  #prepMsPerAudioMs = 0;

  constructor(engine: Engine, config: ServerConfig, log: Logger, lexicon?: Lexicon, policy?: SchedulingPolicy) {
    this.engine = engine;
    this.lexicon = lexicon;
    this.config = config;
    this.log = log;
    this.scheduler = new Scheduler({
      concurrency: config.maxConcurrentRuns,
      ...(policy ? { policy } : {}),
      onJobError: (error) => log.error({ err: error }, 'model run job failed'),
    });
    this.prepScheduler = new Scheduler({
      // the engine's default pool size (cores - 1, 1 to 4) unless PREP_WORKERS says otherwise
      concurrency: config.prepWorkers ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
      ...(policy ? { policy } : {}),
      onJobError: (error) => log.error({ err: error }, 'text preparation job failed'),
      // a prepared text still needs its model run before it can play
      leadMs: () => this.prepScheduler.averageRunMs + this.scheduler.averageRunMs,
    });
    this.admission = new AdmissionController(
      {
        enabled: config.admission === 'on',
        maxUtilization: config.admissionMaxUtilization,
        firstAudioMs: config.admissionFirstAudioMs,
        windowMs: config.admissionWindowMs,
        priorSpeakingShare: config.admissionPriorSpeakingShare,
        priorWeightMs: 20_000,
        assessEveryMs: 25,
        maxSessions: config.maxSessions,
      },
      this,
    );
  }

  // ---- what admission control reads (LoadSource) ----

  now(): number {
    return performance.now();
  }

  get modelSlots(): number {
    return this.scheduler.concurrency;
  }

  get prepSlots(): number {
    return this.prepScheduler.concurrency;
  }

  modelBusyMs(): number {
    return this.scheduler.busyMs();
  }

  prepBusyMs(): number {
    return this.prepScheduler.busyMs();
  }

  modelMsPerAudioMs(): number {
    return this.#modelMsPerAudioMs;
  }

  prepMsPerAudioMs(): number {
    return this.#prepMsPerAudioMs;
  }

  averageRunMs(): number {
    return this.scheduler.averageRunMs;
  }

  *backlogs(): Iterable<Backlog> {
    for (const stream of this.#streams) yield stream.backlog();
  }

  /** A stream (session or request) whose queue counts in the backlog rule, until `forget`. */
  track(stream: BacklogReporter): void {
    this.#streams.add(stream);
  }

  forget(stream: BacklogReporter): void {
    this.#streams.delete(stream);
  }

  /** A model run took `ms` for `audioMs` of audio (the warm-up run counts: the first estimate). */
  observeRun(ms: number, audioMs: number): void {
    if (!(audioMs > 0) || !(ms >= 0)) return;
    const ratio = ms / audioMs;
    this.#modelMsPerAudioMs = this.#modelMsPerAudioMs === 0 ? ratio : 0.9 * this.#modelMsPerAudioMs + 0.1 * ratio;
  }

  /** Text preparation took `ms` for an estimated `audioMs` of audio. */
  observePrep(ms: number, audioMs: number): void {
    if (!(audioMs > 0) || !(ms >= 0)) return;
    const ratio = ms / audioMs;
    this.#prepMsPerAudioMs = this.#prepMsPerAudioMs === 0 ? ratio : 0.9 * this.#prepMsPerAudioMs + 0.1 * ratio;
  }

  /** Throws `overloaded` when one more utterance would exceed the total queue (or we are stopping). */
  admit(): void {
    if (this.draining) throw new SpeechError('overloaded', 'the server is shutting down', this.retryAfterS());
    if (this.pendingTotal >= this.config.maxQueuedTotal) {
      throw new SpeechError(
        'overloaded',
        `the server has ${this.pendingTotal} utterances queued (MAX_QUEUED_TOTAL=${this.config.maxQueuedTotal}); retry later`,
        this.retryAfterS(),
      );
    }
  }

  /** Rough wait for the queue to drain, in whole seconds (at least 1). */
  retryAfterS(): number {
    const perRun = this.scheduler.averageRunMs || 100;
    return Math.max(1, Math.ceil((this.scheduler.queued * perRun) / this.config.maxConcurrentRuns / 1000));
  }

  defaultSettings(): Settings {
    return { voice: this.config.defaultVoice, speed: 1, format: 'pcm_s16le', sampleRate: 24000 };
  }

  /** `base` updated by the fields given; an unknown voice or a G.711 (mulaw, alaw) rate clash throws. */
  applySettings(base: Settings, update: VoiceSettings): Settings {
    if (update.voice !== undefined) this.checkVoice(update.voice);
    const g711 = update.format === 'mulaw' || update.format === 'alaw';
    if (g711 && update.sample_rate !== undefined && update.sample_rate !== 8000) {
      throw new SpeechError(
        'invalid_message',
        `format ${update.format} is 8000 Hz only; got sample_rate ${update.sample_rate}`,
      );
    }
    return {
      voice: update.voice ?? base.voice,
      speed: update.speed ?? base.speed,
      format: update.format ?? base.format,
      sampleRate: update.sample_rate ?? base.sampleRate,
    };
  }

  /** A voice or a blend of voices; else unknown_voice (listing the voices) or invalid_message (a malformed blend). */
  checkVoice(voice: string): void {
    if (this.engine.hasVoice(voice)) return;
    const available = `available: ${this.engine.voices.join(', ')}`;
    if (!isVoiceBlend(voice)) throw new SpeechError('unknown_voice', `unknown voice "${voice}"; ${available}`);
    try {
      parseVoiceBlend(voice, (id) => this.engine.hasVoice(id));
    } catch (error) {
      if (!(error instanceof VoiceBlendError)) throw error;
      if (error.code === 'unknown_voice') throw new SpeechError('unknown_voice', `${error.message}; ${available}`);
      throw new SpeechError('invalid_message', error.message);
    }
    // Parsed, yet refused by the engine: a part whose file was refused at start-up.
    throw new SpeechError('unknown_voice', `voice blend "${voice}" cannot be used; ${available}`);
  }

  /**
   * 400 unsupported_language when `voice` (a blend: its first voice, whose language the text is
   * prepared in) speaks a language this deployment refuses: the same rule and reasons as the
   * agent's (protocol's SPOKEN_LANGUAGES, UNSPOKEN_REASONS), said before any work is queued.
   */
  checkSpoken(voice: string): void {
    // A blend (hasVoice is true for a valid one) speaks its first voice's language; a voice file
    // named with a `+` or `-` is itself.
    const lead = this.engine.voices.includes(voice) ? voice : blendLanguageVoice(voice);
    const language = voiceLanguage(lead);
    if (isSpoken(language)) return;
    const what = isVoiceBlend(voice)
      ? `the language of voice blend ${JSON.stringify(voice)} (its first voice's)`
      : `the language of voice ${JSON.stringify(voice)}`;
    throw new SpeechError('unsupported_language', unspokenMessage(language, what));
  }

  /**
   * A request's text as it will be spoken: SSML when `ssml`, misaki's inline syntax, the lexicon
   * (docs/design/pronunciation.md). Throws 400 invalid_message naming a markup problem.
   */
  spoken(text: string, ssml = false): SpokenText {
    return spokenText(text, { ssml, lexicon: this.lexicon, symbols: this.engine.symbols });
  }

  /** Text limits shared by POST and the WebSocket. */
  checkText(text: string): void {
    if (text.trim().length === 0) throw new SpeechError('invalid_message', 'text is empty');
    if (text.length > this.config.maxTextChars) {
      throw new SpeechError(
        'text_too_long',
        `text has ${text.length} characters; the limit is ${this.config.maxTextChars} (MAX_TEXT_CHARS)`,
      );
    }
  }
}
