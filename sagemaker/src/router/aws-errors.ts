// AWS-style JSON error responses of the local router (restJson1: x-amzn-errortype + JSON body).
// The body carries the message twice: `Message`, the member name the models give every SageMaker
// runtime error (what model-driven deserialisers such as the Python SDK's read), and `message`
// (what AWS's JSON protocols conventionally send; the JS SDK and botocore read either).
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { sendJsonError } from '@kokoro-speech/protocol/server';

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
  const body = { __type: type, message, Message: message, ...extra };
  sendJsonError(res, status, body, { 'x-amzn-errortype': type, 'x-amzn-requestid': randomUUID() });
}
