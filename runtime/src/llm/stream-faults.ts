// A broken answer stream is an error that says what was wrong, whichever provider sent it: the
// wire checks (openai-wire.ts, bedrock-wire.ts) raise LlmErrors that Strands wraps in its own, and
// what they cannot see (an answer that stops at a message boundary) surfaces from Strands or the
// AWS SDK with a terse message, named here.
import { LlmError } from './errors.ts';

function* causes(error: unknown): Generator<object> {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++)
    yield e;
}

/** The LlmError naming a broken answer stream, when `error` is one; undefined otherwise. */
export function streamFault(provider: string, error: unknown): LlmError | undefined {
  for (const e of causes(error)) {
    if (e instanceof LlmError) return e;
    const message = (e as { message?: unknown }).message;
    if (typeof message !== 'string') continue;
    // Strands: the model's stream ended with no stop reason (no finish_reason, no messageStop).
    if (message.startsWith('Stream ended without completing a message'))
      return new LlmError(
        'llm_error',
        `${provider} LLM failed: the answer stream ended before the model finished its message (no stop reason): cut short, or not an answer stream`,
        { cause: error },
      );
    // The AWS SDK's event-stream decoder: bytes that do not frame as event messages.
    if (message.startsWith('Truncated event message received'))
      return new LlmError(
        'llm_error',
        `${provider} LLM failed: the answer's event stream is malformed or was cut short in the middle of a message (${message.split('.')[0]})`,
        { cause: error },
      );
  }
  return undefined;
}
