// Every retry the LLM clients make, explicit in one place, and bounded by the speech timeouts
// (model-watch.ts): the first-token bound runs from the start of the model call to its first
// content across all of them, so none can hold a caller longer than LLM_FIRST_TOKEN_SECONDS.
//   - Strands' agent loop retries a throttled model call (ModelThrottledError); its default is 6
//     attempts with exponential backoff from 4 s up to 240 s: minutes of silence. Here: 2
//     attempts, 0.5-2 s apart (full jitter).
//   - the openai client retries a failed connection, 408, 409, 429 and 5xx once (`maxRetries: 1`,
//     its default is 2), each attempt waiting for the response headers at most the first-token
//     timeout (`timeout`; its default is 10 minutes);
//   - the AWS SDK (Bedrock) makes 2 attempts (`maxAttempts`; its default is 3) for throttling and
//     transient errors before the answer stream starts, and connects within the first-token timeout.
// None retries once the answer streams: a stream that breaks is an llm_error of the turn.
import { DefaultModelRetryStrategy, ExponentialBackoff } from '@strands-agents/sdk';

export const STRANDS_MAX_ATTEMPTS = 2;
export const OPENAI_MAX_RETRIES = 1;
export const AWS_MAX_ATTEMPTS = 2;

/** Strands' retry strategy for one agent (an instance keeps state: never share it). */
export function modelRetryStrategy(): DefaultModelRetryStrategy {
  return new DefaultModelRetryStrategy({
    maxAttempts: STRANDS_MAX_ATTEMPTS,
    backoff: new ExponentialBackoff({ baseMs: 500, maxMs: 2000, jitter: 'full' }),
  });
}
