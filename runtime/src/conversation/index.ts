// Conversations: sessions with memory (a Strands agent each), the history cut at what the caller
// heard, persistence through Strands' session manager, and the live-session registry.
export { Conversation, TurnRecord, type ConversationDeps } from './conversation.ts';
export { ConversationRegistry, DEFAULT_SESSION_LIMITS, SessionLimitError, type SessionLimits } from './registry.ts';
export { createAgent, DEFAULT_WINDOW_MESSAGES, type AgentRecipe } from './agents.ts';
export { agentAnswer } from './answer.ts';
export { heardPlace, rebuildTurn, NOTHING_HEARD, deliveredMs, type HeardPlace } from './heard.ts';
export { Transcript, type Cycle } from './transcript.ts';
export { isSessionId, newSessionId, storageKeyOf } from './session-id.ts';
export { SessionOwners, SessionForbiddenError, ownerRecordKey, type OwnerCheck } from './owners.ts';
export {
  ResilientStorage,
  openSessionStore,
  parseSessionStore,
  type SessionStoreConfig,
  type ResilientStorageOptions,
} from './storage.ts';
