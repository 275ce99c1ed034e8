// Checks Bedrock's answer on the wire: ConverseStream answers with an AWS event stream, and a 200
// that is something else (a proxy's HTML page) would otherwise reach the SDK's event-stream
// decoder and end as a terse "Truncated event message received". Cut or garbled event streams are
// named from the decoder's own errors (stream-faults.ts).
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Readable } from 'node:stream';
import { LlmError } from './errors.ts';

const EVENT_STREAM = 'application/vnd.amazon.eventstream';

/** NodeHttpHandler (pooled HTTP/1.1) refusing a streamed answer that is not an AWS event stream. */
export class EventStreamCheckingHandler extends NodeHttpHandler {
  override async handle(...args: Parameters<NodeHttpHandler['handle']>) {
    const [request] = args;
    const result = await super.handle(...args);
    const { response } = result;
    const streamed = request.path.endsWith('-stream');
    const type = response.headers['content-type'] ?? '(none)';
    if (streamed && response.statusCode === 200 && !type.toLowerCase().startsWith(EVENT_STREAM)) {
      const body = response.body as Readable | undefined;
      const start = await snippet(body);
      throw new LlmError(
        'llm_error',
        `bedrock LLM failed: the server answered HTTP 200 with content-type ${type}, not an AWS event stream: ${JSON.stringify(start)}`,
      );
    }
    return result;
  }
}

/** Up to 120 characters of the start of a body (which is then released). */
async function snippet(body: Readable | undefined): Promise<string> {
  if (!body) return '';
  try {
    for await (const chunk of body)
      return Buffer.from(chunk as Buffer)
        .toString('utf8')
        .slice(0, 120);
    return '';
  } catch {
    return '';
  } finally {
    body.destroy();
  }
}
