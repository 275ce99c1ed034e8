// Public surface of the agent server (AgentCore contract): start it in-process, and its limits.
export { startAgentServer, DEFAULT_LIMITS, DEFAULT_VOICE } from './app.ts';
export type { AgentServer, AgentServerOptions, AgentLimits, SessionOptions } from './app.ts';
export { RequestError, type RequestErrorCode } from './errors.ts';
export { SseWriter } from './sse.ts';
export { BEARER_SUBPROTOCOL, identityOf, userKeyOf, type CallerIdentity } from './identity.ts';
