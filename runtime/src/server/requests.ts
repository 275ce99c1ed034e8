// Parses and validates turn requests (POST /invocations bodies and WebSocket messages) into
// clear, one-line error messages naming the field at fault.
import type { z } from 'zod';
import {
  turnRequestSchema,
  voicesRequestSchema,
  wsClientMessageSchema,
  type TurnRequest,
  type WsClientMessage,
} from '@kokoro-speech/protocol';
import { RequestError } from './errors.ts';

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join('.') : 'request';
      const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
      return `${where}: ${issue.message}${keys}`;
    })
    .join('; ');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RequestError(400, 'invalid_request', `request is not valid JSON: ${(error as Error).message}`);
  }
}

/** A POST /invocations body: a turn, or (added compatibly) `{"voices": true}` for the voice list. */
export function parseInvocation(body: string): { kind: 'turn'; request: TurnRequest } | { kind: 'voices' } {
  const json = parseJson(body);
  if (voicesRequestSchema.safeParse(json).success) return { kind: 'voices' };
  return { kind: 'turn', request: parseTurnRequest(json) };
}

export function parseTurnRequest(body: string | unknown): TurnRequest {
  const parsed = turnRequestSchema.safeParse(typeof body === 'string' ? parseJson(body) : body);
  if (!parsed.success) throw new RequestError(400, 'invalid_request', describeIssues(parsed.error));
  return parsed.data;
}

/** The WebSocket's message types: the turn's two, the voice list, and (added compatibly) voice sessions. */
const WS_MESSAGE_TYPES = ['prompt', 'cancel', 'voices', 'listen', 'listen_end', 'barge_in'];

export function parseWsMessage(text: string): WsClientMessage {
  const json = parseJson(text);
  const type = (json as { type?: unknown } | null)?.type;
  if (!WS_MESSAGE_TYPES.includes(type as string)) {
    throw new RequestError(
      400,
      'invalid_request',
      // ("voices", the voice list, is accepted too; the message keeps naming the turn's two.)
      `message type must be "prompt" or "cancel", got ${JSON.stringify(type)}`,
    );
  }
  const parsed = wsClientMessageSchema.safeParse(json);
  if (!parsed.success) throw new RequestError(400, 'invalid_request', describeIssues(parsed.error));
  return parsed.data;
}
