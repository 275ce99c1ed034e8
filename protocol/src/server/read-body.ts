// Reads a request body with a size limit, for every HTTP server of the project (container, agent,
// local web server, local SageMaker router): a body over the limit is refused as soon as it is
// known (its declared length or the bytes read so far), with the caller's own error. Given the
// response, a refused request also costs nothing more: the rest of the upload is not read, and
// the connection is closed once the refusal has been written.
//
// Why that needs doing here: Node's HTTP/1.1 server keeps a connection alive by reading and
// discarding whatever of a request body the handler left unread (a declared 10 MB is read to its
// end after the 413), and leaves a connection whose chunked upload it stopped reading open until
// its keep-alive timeout. Closing at once is no better: with the upload still arriving, the
// close sends a TCP reset, which can wipe the 413 from the client's receive buffer before the
// client reads it (Node closes that way after any `connection: close` answer). So: stop reading,
// send the answer, half-close, and destroy the socket after a short linger (or as soon as the
// client closes).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as http2, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';

/** How long a refused connection stays half-closed for the client to read the refusal. */
export const REFUSED_LINGER_MS = 1000;

export async function readBody(
  req: IncomingMessage | Http2ServerRequest,
  limit: number,
  tooLarge: (bytes: number) => Error,
  res?: ServerResponse | Http2ServerResponse,
): Promise<Buffer> {
  const refuse = (bytes: number): Error => {
    if (res) closeAfterAnswer(req, res);
    return tooLarge(bytes);
  };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw refuse(declared);
  if (res) {
    // Read by hand rather than with for-await: leaving a for-await early destroys the request,
    // and with it the socket the refusal still has to go out on.
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size <= limit) return void chunks.push(chunk);
        req.off('data', onData);
        req.off('end', onEnd);
        reject(refuse(size));
      };
      const onEnd = () => resolve(Buffer.concat(chunks));
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', reject);
    });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(size);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Nothing more of the upload is read; the connection (HTTP/2: the stream) ends after the answer. */
function closeAfterAnswer(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void {
  req.pause();
  if ('stream' in req) {
    // HTTP/2 (RFC 9113, section 8.1): a complete response, then RST_STREAM with NO_ERROR asks the
    // client to stop sending the request without failing it; the connection's other streams go on.
    res.once('finish', () => req.stream.close(http2.NGHTTP2_NO_ERROR));
    return;
  }
  const socket = req.socket;
  // Read nothing more: the request counts as being consumed (so Node does not drain it after the
  // answer) and stays paused; its buffer fills and the socket stops reading.
  req.read(0);
  res.once('finish', () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
