// AgentCore's session header: a request's conversation when its body names none (POST
// /invocations, and a WebSocket connection at its upgrade).
import type { IncomingMessage } from 'node:http';
import { SESSION_ID_RULE } from '@kokoro-speech/protocol';
import { isSessionId } from '../conversation/index.ts';
import { RequestError } from './errors.ts';

const SESSION_HEADER = 'x-amzn-bedrock-agentcore-runtime-session-id';

/** The session header's id; a malformed one is an invalid_request naming the header. */
export function headerSession(req: IncomingMessage): string | undefined {
  const value = req.headers[SESSION_HEADER];
  if (value === undefined) return undefined;
  if (!isSessionId(value))
    throw new RequestError(
      400,
      'invalid_request',
      `X-Amzn-Bedrock-AgentCore-Runtime-Session-Id: must be ${SESSION_ID_RULE}, got ${JSON.stringify(String(value).slice(0, 300))}`,
    );
  return value;
}
