// AgentCore's session header: a request's conversation when its body names none (POST
// /invocations, and a WebSocket connection at its upgrade, where a browser, which cannot set
// headers, puts it in the query string: AgentCore documents that; whether it reaches the container
// as the header or as the query is inferred, so the upgrade takes either).
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

/** The session of a WebSocket upgrade: the header, else the same name as a query parameter. */
export function upgradeSession(req: IncomingMessage): string | undefined {
  const header = headerSession(req);
  if (header !== undefined) return header;
  const query = new URL(req.url ?? '/', 'http://agent').searchParams;
  const name = [...query.keys()].find((k) => k.toLowerCase() === SESSION_HEADER);
  if (name === undefined) return undefined;
  const value = query.get(name);
  if (!isSessionId(value))
    throw new RequestError(
      400,
      'invalid_request',
      `${name} (query): must be ${SESSION_ID_RULE}, got ${JSON.stringify(String(value).slice(0, 300))}`,
    );
  return value;
}

/** The caller's W3C `traceparent` header, as sent (validated where it is used: a malformed one starts a new trace). */
export function traceparentHeader(req: IncomingMessage): string | undefined {
  const value = req.headers.traceparent;
  return typeof value === 'string' ? value : undefined;
}
