// Public API of @kokoro-speech/runtime: the streaming voice agent (LLM -> sentences -> Kokoro ->
// SSE/WebSocket), its stages, and the pieces the local mode starts in-process.
export { startAgentServer, DEFAULT_LIMITS, DEFAULT_VOICE, RequestError } from './server/index.ts';
// Who calls (the bearer token AgentCore forwards) and the WebSocket subprotocol that carries it.
export { BEARER_SUBPROTOCOL, identityOf, userKeyOf, type CallerIdentity } from './server/index.ts';
export type { AgentServer, AgentServerOptions, AgentLimits, RequestErrorCode, SessionOptions } from './server/index.ts';
export { startAgentFromConfig } from './agent.ts';
export { loadConfig, ConfigError, DEFAULT_SYSTEM_PROMPT, type AgentConfig } from './config.ts';
// The variables and their parsers, for a command that starts the agent itself (npm start).
export {
  readAgentEnv,
  AGENT_ENV,
  LLM_PROVIDERS,
  LLM_VARIABLES,
  STT_VARIABLES,
  type AgentEnv,
  type AgentVariable,
  type LlmProviderName,
  type LlmVariable,
} from './config/agent-env.ts';
export { llmFromEnv, toolsFromEnv, fillerFromEnv, voiceFromEnv, type ToolConfig } from './config/from-env.ts';
export {
  DEFAULT_FILLER_AFTER_MS,
  DEFAULT_FLOW_LIMITS,
  DEFAULT_LISTEN,
  DEFAULT_STREAM_LIMITS,
  DEFAULT_WS_FRAME_LIMITS,
  type FlowLimits,
  type StreamLimits,
  type WsFrameLimits,
} from './config/defaults.ts';
export { oneShotAnswer } from './pipeline/answer-reader.ts';
export {
  runTurn,
  type AnswerEvent,
  type AnswerSource,
  type WordTiming,
  type PipelineEvent,
  type TurnContext,
  type TurnOptions,
  type TurnResult,
  type SentenceTiming,
  type VoiceDefaults,
} from './pipeline/turn.ts';
export { TURN_POLICIES, type TurnPolicy, type PolicyPlan, type PolicyPlanner } from './pipeline/policies.ts';
export * from './llm/index.ts';
export * from './tools/index.ts';
export * from './conversation/index.ts';
export * from './tts/index.ts';
export {
  SentenceSegmenter,
  SEGMENTER_DEFAULTS,
  normalizeForSpeech,
  sourceRange,
  type Piece,
  type SegmenterOptions,
} from './text/index.ts';
