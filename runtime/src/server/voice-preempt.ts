// Preemptive generation's server side (VOICE_PREEMPTIVE: src/voice/preemptive-turn.ts): a voice
// turn's request, before its turn, becomes an answer held by the turn's conversation
// (conversation/preemptive-answer.ts), which the turn with the same prompt adopts. It takes no
// turn slot: at most one is held per voice session, and it ends in that session's next turn.
import { chooseLanguage, type TurnRequest } from '@kokoro-speech/protocol';
import type { AgentCore } from './agent-core.ts';
import type { CallerIdentity } from './identity.ts';
import type { HeldAnswer } from '../voice/preemptive-turn.ts';
import type { PreemptiveAnswer } from '../conversation/preemptive-answer.ts';

export function preemptAnswer(
  core: AgentCore,
  request: TurnRequest,
  call: { sessionId: string; caller: CallerIdentity | undefined; persist: boolean },
): HeldAnswer | undefined {
  let language;
  try {
    core.turns.validate(request);
    language = chooseLanguage(request, core.defaultVoice).language;
  } catch {
    return undefined; // the turn itself is refused the same way, with its error event
  }
  let dropped = false;
  let held: PreemptiveAnswer | undefined;
  core.conversationFor(call.sessionId, call.caller, call.persist).then(
    (conversation) => {
      if (!dropped) held = conversation.preempt({ prompt: request.prompt, language });
    },
    () => undefined, // as above: the turn reports it
  );
  return {
    discard: () => {
      dropped = true;
      void held?.discard();
    },
  };
}
