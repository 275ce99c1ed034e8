// One stream's preparation lane: each utterance's text turned into model-ready pieces on worker
// threads (through the prep scheduler), its marks stamped, and the waiting preparations abandoned
// when the stream is cancelled. Kept apart from utterance-stream.ts, which orders and delivers audio.
import type { PreparedPiece } from '../engine/types.ts';
import type { Lane } from '../scheduler/index.ts';
import type { UtteranceMarks } from './utterance-sink.ts';
import type { SpokenText } from './spoken-text.ts';
import type { Settings, SpeechService } from './speech-service.ts';

export class UtterancePrep {
  readonly #service: SpeechService;
  readonly #lane: Lane;
  /** Rejects the preparations still waiting when the stream is cancelled. */
  readonly #abandonPreps = new Set<(reason: Error) => void>();

  /** `dueAt`: when the stream's next text is due (performance.now ms). */
  constructor(service: SpeechService, dueAt: () => number) {
    this.#service = service;
    this.#lane = service.prepScheduler.openLane(dueAt);
  }

  prepare(
    spoken: SpokenText,
    settings: Settings,
    estimatedAudioMs: number,
    marks: UtteranceMarks,
  ): Promise<PreparedPiece[]> {
    const { promise: prepared, resolve, reject: abandon } = Promise.withResolvers<PreparedPiece[]>();
    this.#lane.enqueue({
      estimatedAudioMs,
      run: () => {
        const started = performance.now();
        marks.prepStartAt = started;
        // Only a voice's first letter picks the G2P (engine/languages.ts): a language stands for any of its voices.
        const reader = settings.language ? `${settings.language}f_any` : settings.voice;
        const done = this.#service.engine.prepare(spoken.plain ? spoken.script.text : spoken.script, reader);
        done.then(
          () => {
            marks.prepEndAt = performance.now();
            this.#service.observePrep(marks.prepEndAt - started, estimatedAudioMs);
          },
          () => {},
        );
        done.then(resolve, abandon);
        return done.then(
          () => {},
          () => {},
        );
      },
    });
    this.#abandonPreps.add(abandon);
    return prepared.finally(() => this.#abandonPreps.delete(abandon));
  }

  /** Drops the queued preparations and rejects every one still waiting. */
  cancel(): void {
    this.#lane.clear();
    for (const abandon of [...this.#abandonPreps]) abandon(new Error('cancelled'));
    this.#abandonPreps.clear();
  }

  /** Releases the lane (after cancel). */
  close(): void {
    this.#service.prepScheduler.closeLane(this.#lane);
  }
}
