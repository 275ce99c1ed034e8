// A SpeechError as an HTTP answer: its status, Retry-After when it has one, and the protocol's
// error body ({"error":{"code","message","retry_after_s"?}}), built once for a response and for a
// refused WebSocket upgrade alike.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuseUpgrade, sendJsonError } from '@kokoro-speech/protocol/server';
import type { SpeechError } from '../tts/errors.ts';

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function errorResponse(error: SpeechError): ErrorResponse {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (error.retryAfterS !== undefined) headers['retry-after'] = String(error.retryAfterS);
  return { status: error.status, headers, body: JSON.stringify(error.body) };
}

/** Answers `res` with the error (or drops the connection if the audio has already begun). */
export function sendError(res: ServerResponse, error: SpeechError): void {
  const { status, headers } = errorResponse(error);
  sendJsonError(res, status, error.body, headers);
}

/** Refuses a WebSocket upgrade with the error, before the handshake. */
export function refuseUpgradeWith(socket: Duplex, error: SpeechError): void {
  const { status, headers, body } = errorResponse(error);
  refuseUpgrade(socket, status, { body, headers });
}
