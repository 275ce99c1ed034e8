// The AgentCore Runtime server: GET /ping, POST /invocations (a turn as Server-Sent Events) and
// GET /ws (turns over a WebSocket). node:http + ws rather than the bedrock-agentcore package:
// the contract is three routes, and owning the SSE writer and the disconnect handling is what the
// 100 ms cancel needs (that package also answers 406 to callers without Accept: text/event-stream).
// The parts: agent-core.ts (what they share), routes.ts, upgrade.ts, lifecycle.ts.
import { createServer } from 'node:http';
import type { ConversationRegistry } from '../conversation/index.ts';
import { createAgentCore, type AgentServerOptions } from './agent-core.ts';
import { routes } from './routes.ts';
import { acceptWebSockets } from './upgrade.ts';
import { closeServer, listen } from './lifecycle.ts';

export type { AgentServerOptions, SessionOptions } from './agent-core.ts';
export { DEFAULT_LIMITS, DEFAULT_VOICE, type AgentLimits } from '../config/defaults.ts';

export interface AgentServer {
  /** http://host:port */
  url: string;
  /** ws://host:port/ws */
  wsUrl: string;
  port: number;
  /** The live conversations (for tests and the benchmark). */
  sessions: ConversationRegistry;
  /** Stops accepting, cancels running turns, closes sockets, waits for session saves. */
  close(): Promise<void>;
}

export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const core = createAgentCore(options);
  const server = createServer(routes(core));
  const wss = acceptWebSockets(server, core);
  const { port, url, wsUrl } = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  core.log.info({ port, llm: options.llm.description, tts: options.tts.name }, 'agent server listening');
  return { url, wsUrl, port, sessions: core.sessions, close: () => closeServer(server, wss, core) };
}
