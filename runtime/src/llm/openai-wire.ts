// Checks an OpenAI-compatible server's streamed answer on the wire, so that a broken one is an
// error naming what was wrong instead of half an answer told as a success: a 200 that is not an
// event stream (a proxy's HTML page), a line that is not Server-Sent Events or an event that is
// not JSON (garbage after some tokens), and a stream that ends with neither a finish_reason nor
// `[DONE]` (cut short). The openai client ignores lines it does not know and may end quietly on a
// cut stream, so the check sits under it, as the `fetch` it is given: the bytes pass through
// unchanged, and a fault errors the body with an LlmError (which Strands' errors then carry).
// Hand-written: a line scanner of a few dozen lines, and no SSE library checks strictly.
import { LlmError } from './errors.ts';

const FIELD = /^(data|event|id|retry)(:|$)/;

/** A `fetch` for the openai client that checks streamed answers (other responses pass as they are). */
export function checkedFetch(provider: string, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const streaming = typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
    if (!streaming || !response.ok || !response.body) return response;
    const fail = (what: string) => new LlmError('llm_error', `${provider} LLM failed: ${what}`);
    const type = response.headers.get('content-type') ?? '(none)';
    if (!type.toLowerCase().startsWith('text/event-stream')) {
      const start = await snippet(response.body);
      return withBody(
        response,
        errored(
          fail(
            `the server answered HTTP ${response.status} with content-type ${type}, not an event stream: ${JSON.stringify(start)}`,
          ),
        ),
      );
    }
    return withBody(response, checkedStream(response.body, fail));
  };
}

/**
 * The body's whole lines, passed on as they come; at the first line or event that is not a chat
 * stream's, the stream errors, but only once the reader has taken everything before it (an error
 * discards what a stream still holds, and the text before a fault is still to be spoken).
 */
function checkedStream(body: ReadableStream<Uint8Array>, fail: (what: string) => LlmError): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let carry = '';
  let data: string[] = [];
  let bytes = 0;
  let finished = false; // [DONE] or a finish_reason was seen
  let fault: LlmError | null = null;
  /** The end of an event (a blank line): the problem with its data, or null. */
  const endOfEvent = (): string | null => {
    if (data.length === 0) return null;
    const payload = data.join('\n');
    data = [];
    if (payload.startsWith('[DONE]')) {
      finished = true;
      return null;
    }
    let chunk: { choices?: { finish_reason?: unknown }[] };
    try {
      chunk = JSON.parse(payload) as typeof chunk;
    } catch {
      return `an event of the answer stream is not JSON: ${JSON.stringify(payload.slice(0, 120))}`;
    }
    if (chunk?.choices?.some((c) => c?.finish_reason)) finished = true;
    return null;
  };
  /** Checks the whole lines of `text`; returns the good ones (up to a fault, which it records). */
  const scan = (text: string): string => {
    const lines = (carry + text).split('\n');
    carry = lines.pop() ?? '';
    let good = '';
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      let problem: string | null = null;
      if (line === '') problem = endOfEvent();
      else if (line.startsWith(':'))
        problem = null; // a comment (keep-alive)
      else if (!FIELD.test(line))
        problem = `a line of the answer stream is not Server-Sent Events: ${JSON.stringify(line.slice(0, 120))}`;
      else if (line.startsWith('data')) data.push(line.slice(5).replace(/^ /, ''));
      if (problem) {
        fault = fail(problem);
        return good;
      }
      good += `${raw}\n`;
    }
    return good;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (fault) return controller.error(fault);
          const { done, value } = await reader.read();
          let good: string;
          if (done) {
            good = scan(decoder.decode() + (carry === '' ? '' : '\n'));
            if (!fault) {
              const problem = endOfEvent();
              if (problem) fault = fail(problem);
              else if (!finished)
                fault = fail(
                  `the answer stream ended after ${bytes} bytes with neither a finish_reason nor [DONE]: it was cut short`,
                );
            }
            if (!fault) {
              if (good) controller.enqueue(encoder.encode(good));
              return controller.close();
            }
          } else {
            bytes += value.byteLength;
            good = scan(decoder.decode(value, { stream: true }));
          }
          if (good) return controller.enqueue(encoder.encode(good));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Up to 120 characters of the start of a body (then released). */
async function snippet(body: ReadableStream<Uint8Array>): Promise<string> {
  const reader = body.getReader();
  try {
    const { value } = await reader.read();
    return new TextDecoder().decode(value ?? new Uint8Array()).slice(0, 120);
  } catch {
    return '';
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

function errored(error: Error): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.error(error) });
}

function withBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
