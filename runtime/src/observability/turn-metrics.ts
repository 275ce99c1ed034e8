// The agent's metrics: one EMF line per finished turn on stdout (AgentCore sends stdout to the
// runtime's log group; CloudWatch Logs makes the metrics), and one more per failed turn counting it
// by error code. The contract the stacks' dashboard and alarms read (runtime/README.md,
// docs/design/observability.md): namespace METRICS_NAMESPACE, dimension set [Service] (and
// [Service, ErrorCode] for TurnErrors). No session or user id anywhere in the line: dimensions
// must keep a bounded cardinality, and properties would put caller data in the metrics' log.
import {
  AGENT_DIMENSIONS,
  AGENT_METRICS as M,
  emfLine,
  TURN_ERROR_DIMENSIONS,
  type EmfMetric,
  type TurnErrorDimension,
} from '@kokoro-speech/protocol/observability';

/** The ErrorCode dimension of a code: a known code, `tts_<code>` of one sentence as `tts_sentence`, else `other`. */
export function errorDimension(code: string): TurnErrorDimension {
  if ((TURN_ERROR_DIMENSIONS as readonly string[]).includes(code)) return code as TurnErrorDimension;
  if (code.startsWith('tts_')) return 'tts_sentence';
  return 'other';
}

export interface TurnMetricsOptions {
  namespace: string;
  service: string;
  /** Where each line goes (default: stdout). */
  write?: (line: string) => void;
  /** Epoch ms (default Date.now). */
  now?: () => number;
}

/** What a finished turn gives (the pipeline's TurnResult has these fields). */
export interface TurnFigures {
  outcome: 'completed' | 'cancelled' | 'failed';
  metrics: { first_token_ms: number | null; first_audio_ms: number | null; total_ms: number };
  sentences: readonly { readyMs: number; firstAudioMs?: number }[];
  error?: { code: string };
}

export interface TurnExtras {
  /** TTS sessions refused during the turn. */
  refusals: number;
  /** The caller went away (or was dropped for not reading) before the turn ended. */
  callerDropped: boolean;
  /** A voice turn's figures (absent for a typed turn: no voice metrics in its line). */
  voice?: VoiceFigures;
}

export interface VoiceFigures {
  endOfSpeechToTranscriptMs: number;
  /** null when the turn played no audio. */
  endOfSpeechToFirstAudioMs: number | null;
  /** The customer cut the answer by voice (the agent's VAD or the page's `barge_in`). */
  bargeIns: number;
}

/** EMF takes at most 100 values per metric in a line: the first 100 sentences count. */
const MAX_VALUES = 100;
const round = (ms: number) => Math.round(ms * 100) / 100;

export class TurnMetrics {
  readonly #o: Required<TurnMetricsOptions>;

  constructor(options: TurnMetricsOptions) {
    this.#o = {
      write: (line) => void process.stdout.write(`${line}\n`),
      now: Date.now,
      ...options,
    };
  }

  /** The lines of one finished turn, written. */
  turn(result: TurnFigures, extras: TurnExtras): void {
    for (const line of this.lines(result, extras)) this.#o.write(line);
  }

  lines(result: TurnFigures, extras: TurnExtras): string[] {
    const { namespace, service } = this.#o;
    const at = this.#o.now();
    const m = result.metrics;
    const sentenceToAudio = result.sentences
      .filter((s) => s.firstAudioMs !== undefined)
      .slice(0, MAX_VALUES)
      .map((s) => round(Math.max(0, s.firstAudioMs! - s.readyMs)));
    const metrics: EmfMetric[] = [
      { name: M.turns, value: 1, unit: 'Count' },
      { name: M.turnDuration, value: round(m.total_ms), unit: 'Milliseconds' },
      ...(m.first_token_ms === null
        ? []
        : [{ name: M.firstToken, value: m.first_token_ms, unit: 'Milliseconds' as const }]),
      ...(m.first_audio_ms === null
        ? []
        : [{ name: M.firstAudio, value: m.first_audio_ms, unit: 'Milliseconds' as const }]),
      ...(sentenceToAudio.length === 0
        ? []
        : [{ name: M.sentenceToAudio, value: sentenceToAudio, unit: 'Milliseconds' as const }]),
      { name: M.interruptions, value: result.outcome === 'cancelled' ? 1 : 0, unit: 'Count' },
      { name: M.ttsRefusals, value: extras.refusals, unit: 'Count' },
      { name: M.callerDrops, value: extras.callerDropped ? 1 : 0, unit: 'Count' },
      ...(extras.voice ? voiceMetrics(extras.voice) : []),
    ];
    const lines = [emfLine(namespace, { [AGENT_DIMENSIONS.service]: service }, metrics, at)];
    if (result.outcome === 'failed') {
      const code = errorDimension(result.error?.code ?? 'internal');
      lines.push(
        emfLine(
          namespace,
          { [AGENT_DIMENSIONS.service]: service, [AGENT_DIMENSIONS.errorCode]: code },
          [{ name: M.turnErrors, value: 1, unit: 'Count' }],
          at,
        ),
      );
    }
    return lines;
  }
}

/** A voice turn's metrics (names the stacks' dashboard reads). */
function voiceMetrics(voice: VoiceFigures): EmfMetric[] {
  return [
    { name: M.voiceEndOfSpeechToTranscript, value: round(voice.endOfSpeechToTranscriptMs), unit: 'Milliseconds' },
    ...(voice.endOfSpeechToFirstAudioMs === null
      ? []
      : [
          {
            name: M.voiceEndOfSpeechToFirstAudio,
            value: round(voice.endOfSpeechToFirstAudioMs),
            unit: 'Milliseconds' as const,
          },
        ]),
    { name: M.bargeIns, value: voice.bargeIns, unit: 'Count' },
  ];
}
