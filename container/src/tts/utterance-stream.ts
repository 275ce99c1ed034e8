// The ordered audio pipeline of one session (or one POST request): text in, each utterance
// prepared on worker threads (utterance-prep.ts), its pieces run through the model scheduler, and
// their audio delivered in order: one utterance after another, each piece as soon as it is
// synthesised.
import { UtteranceEncoder, effectiveSampleRate } from '../audio/index.ts';
import type { UtteranceInfo, UtteranceMarks, UtteranceSink, UtteranceWord } from './utterance-sink.ts';
import { pieceSpeed, type Utterance } from './utterance.ts';
import type { PreparedPiece, Synthesis } from '../engine/types.ts';
import { UtterancePrep } from './utterance-prep.ts';
import { pieceWordTimings } from '../engine/word-timings.ts';
import { plainSpoken, type SpokenText } from './spoken-text.ts';
import type { Backlog } from '../admission/index.ts';
import type { Lane } from '../scheduler/index.ts';
import { asSpeechError, type SpeechError } from './errors.ts';
import type { Settings, SpeechService } from './speech-service.ts';
import { SpeechBudget } from './output-bound.ts';

export type { UtteranceInfo, UtteranceMarks, UtteranceSink, UtteranceStats, UtteranceWord } from './utterance-sink.ts';

export class UtteranceStream {
  readonly #service: SpeechService;
  readonly #sink: UtteranceSink;
  readonly #lane: Lane;
  readonly #prep: UtterancePrep;
  /** Estimated audio of pieces handed to the model scheduler and not yet sent. */
  #queuedAudioMs = 0;
  /** Accepted and unfinished utterances, in arrival order. */
  #queue: Utterance[] = [];
  /** Bumped by cancel: work of an older generation is dropped wherever it is. */
  #generation = 0;
  #enqueueChain: Promise<void> = Promise.resolve();
  /** When the audio sent so far will have finished playing (performance.now ms: monotonic). */
  #playoutEnd = 0;
  #nextIndex = 0;
  #closed = false;
  /** A #deliver to come in a later turn of the event loop (after a pause: #deliverSoon). */
  #soon: NodeJS.Immediate | undefined;

  constructor(service: SpeechService, sink: UtteranceSink) {
    this.#service = service;
    this.#sink = sink;
    this.#lane = service.scheduler.openLane(() => this.#playoutEnd);
    // A session's next text is due once its played and queued audio runs out.
    this.#prep = new UtterancePrep(service, () => Math.max(this.#playoutEnd, performance.now()) + this.#queuedAudioMs);
    service.track(this);
  }

  /** What this stream still has to play, for admission control (admission/backlog-rule.ts). */
  backlog(): Backlog {
    const pendingAudioMs: number[] = [];
    for (const u of this.#queue) {
      if (u.pieces) for (let i = u.delivered; i < u.pieces.length; i++) pendingAudioMs.push(u.estimates[i] ?? 0);
      else pendingAudioMs.push(u.textEstimateMs);
    }
    return {
      playoutEnd: this.#playoutEnd,
      pendingAudioMs,
      firstArrivedAt: this.#queue[0]?.receivedAt ?? performance.now(),
    };
  }

  /** Utterances accepted and not finished. */
  get pending(): number {
    return this.#queue.length;
  }

  /** Accept one utterance (limits are the caller's job): a plain text, or one built by pronunciation/. */
  push(input: string | SpokenText, id: string | undefined, settings: Settings, traceparent?: string): UtteranceInfo {
    const spoken = typeof input === 'string' ? plainSpoken(input) : input;
    const text = spoken.script.text;
    if (this.#closed) throw new Error('utterance stream is closed');
    const index = this.#nextIndex++;
    const output = { format: settings.format, sampleRate: effectiveSampleRate(settings.format, settings.sampleRate) };
    const info: UtteranceInfo = {
      id: id ?? `u${index}`,
      index,
      settings,
      output,
      ...(traceparent === undefined ? {} : { traceparent }),
    };
    const textEstimateMs = this.#service.estimator.estimateText(text.length, settings.speed);
    const marks: UtteranceMarks = { receivedAt: performance.now() };
    const prepared = this.#prep.prepare(spoken, settings, textEstimateMs, marks);
    prepared.catch(() => {}); // reported by enqueuePieces, if still wanted
    const u: Utterance = {
      info,
      spoken,
      receivedAt: marks.receivedAt,
      textEstimateMs,
      prepared,
      pieces: null,
      results: [],
      nativeSamples: 0,
      estimates: [],
      delivered: 0,
      started: false,
      encoder: new UtteranceEncoder(output, this.#service.engine.sampleRate),
      samplesSent: 0,
      synthesisMs: 0,
      firstRunAt: undefined,
      marks,
      budget: new SpeechBudget(spoken.inputChars ?? text.length),
    };
    this.#queue.push(u);
    this.#service.pendingTotal++;
    const generation = this.#generation;
    this.#enqueueChain = this.#enqueueChain.then(() => this.#enqueuePieces(u, generation));
    return info;
  }

  /** Drop everything queued or in progress; returns the ids dropped. */
  cancel(): string[] {
    const dropped = this.#queue.map((u) => u.info.id);
    this.#generation++;
    this.#lane.clear();
    this.#prep.cancel();
    this.#queuedAudioMs = 0;
    this.#service.pendingTotal -= this.#queue.length;
    this.#queue = [];
    this.#enqueueChain = Promise.resolve();
    return dropped;
  }

  /** Cancel and release the lane (a vanished client, a finished request). */
  close(): string[] {
    const dropped = this.cancel();
    this.#closed = true;
    if (this.#soon) clearImmediate(this.#soon);
    this.#service.forget(this);
    this.#service.scheduler.closeLane(this.#lane);
    this.#prep.close();
    return dropped;
  }

  #live(u: Utterance, generation: number): boolean {
    return generation === this.#generation && !this.#closed && this.#queue.includes(u);
  }

  // Enqueues run in arrival order (a chain), so pieces reach the lane in utterance order even when
  // a later utterance's preparation finishes first.
  async #enqueuePieces(u: Utterance, generation: number): Promise<void> {
    if (!this.#live(u, generation)) return;
    let pieces: PreparedPiece[];
    try {
      pieces = await u.prepared;
    } catch (error) {
      if (this.#live(u, generation)) this.#fail(u, asSpeechError(error));
      return;
    }
    if (!this.#live(u, generation)) return;
    u.pieces = pieces;
    pieces.forEach((piece, i) => {
      const estimatedAudioMs =
        piece.pauseMs ?? this.#service.estimator.estimate(piece.tokenIds.length, pieceSpeed(u, piece));
      this.#queuedAudioMs += estimatedAudioMs;
      u.estimates[i] = estimatedAudioMs;
      // A pause needs no model run: it is ready now, and becomes silence when its turn comes (#deliver).
      if (piece.pauseMs !== undefined) u.results[i] = { audio: new Float32Array(0), frames: null };
      else this.#lane.enqueue({ estimatedAudioMs, run: () => this.#runPiece(u, i, generation) });
    });
    this.#deliver();
  }

  async #runPiece(u: Utterance, i: number, generation: number): Promise<void> {
    if (!this.#live(u, generation)) return;
    const piece = u.pieces![i]!;
    const { voice } = u.info.settings;
    const speed = pieceSpeed(u, piece);
    const started = performance.now();
    u.firstRunAt ??= started;
    u.marks.firstRunAt ??= started;
    let result: Synthesis;
    try {
      const { engine } = this.#service;
      result = engine.synthesizeTimed
        ? await engine.synthesizeTimed(piece, voice, speed)
        : { audio: await engine.synthesize(piece, voice, speed), frames: null };
    } catch (error) {
      if (this.#live(u, generation)) this.#fail(u, asSpeechError(error));
      return;
    }
    u.marks.lastRunEndAt = performance.now();
    const tookMs = u.marks.lastRunEndAt - started;
    u.synthesisMs += tookMs;
    const audioMs = (result.audio.length / this.#service.engine.sampleRate) * 1000;
    this.#service.estimator.observe(piece.tokenIds.length, piece.text.length, speed, audioMs);
    this.#service.observeRun(tookMs, audioMs);
    if (!this.#live(u, generation)) return;
    try {
      u.budget.take(audioMs, speed);
    } catch (error) {
      return this.#fail(u, asSpeechError(error));
    }
    u.results[i] = result;
    this.#deliver();
  }

  /** Sends whatever is ready, strictly in order; finishes utterances whose pieces are all sent. */
  #deliver(): void {
    while (this.#queue.length > 0) {
      const u = this.#queue[0]!;
      if (!u.pieces) return;
      while (u.delivered < u.pieces.length) {
        const result = u.results[u.delivered];
        if (!result) return;
        const piece = u.pieces[u.delivered]!;
        this.#queuedAudioMs = Math.max(0, this.#queuedAudioMs - (u.estimates[u.delivered] ?? 0));
        u.results[u.delivered++] = undefined;
        this.#begin(u);
        if (piece.pauseMs !== undefined) {
          this.#send(u, u.encoder.pause(piece.pauseMs));
          if (this.#queue[0] !== u) return;
          u.nativeSamples += Math.round((piece.pauseMs * this.#service.engine.sampleRate) / 1000);
          // One pause per turn of the event loop: breaks back to back are not built in one
          // synchronous run while other sessions, /ping and the writes to slow clients wait.
          return this.#deliverSoon();
        }
        this.#send(u, u.encoder.write(result.audio));
        if (this.#queue[0] !== u) return; // the sink closed the stream
        this.#sendWords(u, piece, result);
        u.nativeSamples += result.audio.length;
        if (this.#queue[0] !== u) return;
      }
      this.#begin(u);
      this.#send(u, u.encoder.end());
      if (this.#queue[0] !== u) return;
      this.#queue.shift();
      this.#service.pendingTotal--;
      const sampleRate = u.info.output.sampleRate;
      this.#sink.end(u.info, {
        samples: u.encoder.samples,
        durationMs: (u.encoder.samples / sampleRate) * 1000,
        synthesisMs: u.synthesisMs,
        queueMs: (u.firstRunAt ?? performance.now()) - u.receivedAt,
        pieces: u.pieces.length,
        marks: u.marks,
      });
    }
  }

  #deliverSoon(): void {
    this.#soon ??= setImmediate(() => {
      this.#soon = undefined;
      if (!this.#closed) this.#deliver();
    });
  }

  #begin(u: Utterance): void {
    if (u.started) return;
    u.started = true;
    this.#sink.start(u.info);
  }

  /** The piece's words, on the utterance's clock (ms from its first sample). */
  #sendWords(u: Utterance, piece: PreparedPiece, result: Synthesis): void {
    if (!this.#sink.words || !piece.words || piece.words.length === 0) return;
    const timings = pieceWordTimings(
      piece.words,
      piece.tokenIds.length,
      result.audio.length,
      result.frames,
      piece.wordsApproximate,
    );
    const rate = this.#service.engine.sampleRate;
    const ms = (samples: number) => Math.round(((u.nativeSamples + samples) / rate) * 100_000) / 100;
    this.#sink.words(
      u.info,
      timings.words.map((w) => ({
        text: u.spoken.script.text.slice(w.start, w.end),
        ...u.spoken.source(w.start, w.end),
        start_ms: ms(w.startSample),
        end_ms: ms(w.endSample),
      })),
      timings.estimated,
    );
  }

  #send(u: Utterance, bytes: Buffer): void {
    if (bytes.length === 0) return;
    const added = u.encoder.samples - u.samplesSent;
    u.samplesSent = u.encoder.samples;
    this.#playoutEnd = Math.max(this.#playoutEnd, performance.now()) + (added / u.info.output.sampleRate) * 1000;
    this.#sink.audio(u.info, bytes);
  }

  #fail(u: Utterance, error: SpeechError): void {
    this.#queue = this.#queue.filter((q) => q !== u);
    this.#service.pendingTotal--;
    for (let i = u.delivered; i < u.estimates.length; i++) this.#queuedAudioMs -= u.estimates[i] ?? 0;
    this.#queuedAudioMs = Math.max(0, this.#queuedAudioMs);
    this.#service.log.warn({ id: u.info.id, code: error.code, err: error.message }, 'utterance failed');
    this.#sink.fail(u.info, error, u.marks);
    this.#deliver();
  }
}
