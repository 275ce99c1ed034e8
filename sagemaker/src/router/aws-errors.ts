// AWS-style JSON error responses of the local router (restJson1: x-amzn-errortype + JSON body).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';

export type AnyResponse = ServerResponse | Http2ServerResponse;

export function sendAwsError(
  res: AnyResponse,
  status: number,
  type: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({ __type: type, message, ...extra });
  (res as ServerResponse).writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': type,
    'x-amzn-requestid': randomUUID(),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
