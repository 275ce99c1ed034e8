// Builds the Strands agents turns run on: a provider's model, the system prompt, the tool box's
// tools under the tool guard, Strands' sliding-window conversation manager and, for persisted
// sessions, Strands' session manager.
import {
  Agent,
  ExecuteToolStage,
  SlidingWindowConversationManager,
  type Model,
  type SessionManager,
} from '@strands-agents/sdk';
import { toolGuard } from '../tools/guard.ts';
import type { ToolBox } from '../tools/toolbox.ts';
import { modelRetryStrategy } from '../llm/retries.ts';

/** Strands' own default window: 40 messages (user, assistant and tool-result messages). */
export const DEFAULT_WINDOW_MESSAGES = 40;

export interface AgentRecipe {
  model: Model;
  systemPrompt?: string;
  tools?: ToolBox;
  /** Messages the sliding window keeps (older ones are dropped, tool use/result pairs kept whole). */
  windowMessages?: number;
}

export async function createAgent(recipe: AgentRecipe, sessionManager?: SessionManager): Promise<Agent> {
  const tools = recipe.tools ? await recipe.tools.tools() : [];
  const agent = new Agent({
    model: recipe.model,
    printer: false,
    // Throttling retries that fit the speech timeouts (llm/retries.ts), one strategy per agent.
    retryStrategy: modelRetryStrategy(),
    tools,
    conversationManager: new SlidingWindowConversationManager({
      windowSize: recipe.windowMessages ?? DEFAULT_WINDOW_MESSAGES,
    }),
    ...(recipe.systemPrompt ? { systemPrompt: recipe.systemPrompt } : {}),
    ...(sessionManager ? { sessionManager } : {}),
  });
  if (recipe.tools) agent.addMiddleware(ExecuteToolStage, toolGuard(recipe.tools.limits));
  return agent;
}
