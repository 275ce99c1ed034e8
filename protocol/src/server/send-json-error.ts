// Answering an HTTP request with an error in JSON: the one writer for every family of error body
// the project's servers speak (the container protocol's and the turn contract's
// {"error":{"code","message"}}, OpenAI's {"error":{"message","type","param","code"}}, AWS's
// {"__type","message"}). Each family builds its body; this writes the status, headers and length,
// or cuts a response whose status has already gone out (it can no longer say what went wrong).
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

/** The container protocol's and the turn contract's error body (docs/contracts/). */
export function kokoroErrorBody(
  code: string,
  message: string,
  retryAfterS?: number,
): { error: { code: string; message: string; retry_after_s?: number } } {
  return { error: { code, message, ...(retryAfterS === undefined ? {} : { retry_after_s: retryAfterS }) } };
}

/** Writes `body` as JSON with `status`; false (the response cut) when the response had begun. */
export function sendJsonError(
  res: ServerResponse | Http2ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): boolean {
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  const text = JSON.stringify(body);
  (res as ServerResponse).writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
  return true;
}
