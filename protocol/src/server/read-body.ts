// Reads a request body with a size limit, for every HTTP server of the project (container, agent,
// local web server, local SageMaker router): a body over the limit is refused as soon as it is
// known (its declared length or the bytes read so far), with the caller's own error.
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

export async function readBody(
  req: IncomingMessage | Http2ServerRequest,
  limit: number,
  tooLarge: (bytes: number) => Error,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(declared);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(size);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
