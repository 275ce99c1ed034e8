// How a turn names what went wrong: every throw is turned into the `error` event's code and
// message of the stage it came from, so that the caller is told the real cause (an LLM that broke
// is `llm_*`, a TTS stream `tts_*`, the text front end `text_error`; a bug elsewhere `internal`,
// with its message), never a throw of ours blamed on the LLM. docs/contracts/turn.md, "Error codes".
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { LlmError } from '../llm/errors.ts';
import { TtsTransportError } from '../tts/types.ts';
import type { TurnFailure } from './types.ts';

/** A throw of the agent's own code in one stage of a turn, carrying what the caller is told. */
export class TurnFault extends Error {
  readonly failure: TurnFailure;
  constructor(failure: TurnFailure, cause: unknown) {
    super(failure.message, { cause });
    this.name = 'TurnFault';
    this.failure = failure;
  }
}

/** Runs one step of the text front end (segmenter, normaliser, shown text): a throw is `text_error`. */
export function inTextFrontEnd<T>(what: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof TurnFault) throw error;
    const message = `the text front end failed ${what}: ${errorMessage(error)}`;
    throw new TurnFault({ code: 'text_error', message }, error);
  }
}

/** The LLM's stream failed: its own error, or one naming the provider. */
export function llmFailure(error: unknown, llmName: string): TurnFailure {
  return error instanceof LlmError
    ? { code: error.code, message: error.message }
    : { code: 'llm_error', message: `${llmName} LLM failed: ${errorMessage(error)}` };
}

/** The TTS service refused us (`tts_overloaded`), or it is unavailable. */
export const ttsFailureCode = (error: unknown) =>
  error instanceof TtsTransportError && error.code === 'overloaded' ? 'tts_overloaded' : 'tts_unavailable';

/** Any other throw during a turn: its stage's failure if it names one, else a bug (`internal`) with its message. */
export function turnFailure(error: unknown, where: string): TurnFailure {
  if (error instanceof TurnFault) return error.failure;
  return { code: 'internal', message: `${where} failed: ${errorMessage(error)}` };
}
