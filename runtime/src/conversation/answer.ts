// One turn through a Strands agent: the agent's stream events become the pipeline's answer events
// (text deltas, tool boundaries), and what the loop wrote is recorded in a Transcript.
import type { Agent } from '@strands-agents/sdk';
import type { AnswerEvent } from '../pipeline/types.ts';
import { textDeltaOf } from '../llm/one-shot.ts';
import { toLlmError } from '../llm/errors.ts';
import { DEFAULT_LLM_TIMEOUTS, ModelWatch, type LlmTimeouts } from '../llm/model-watch.ts';
import { streamFault } from '../llm/stream-faults.ts';
import type { LlmFailureSource } from '../llm/types.ts';
import { Transcript, type Cycle } from './transcript.ts';

type StreamEvent = { type: string } & Record<string, unknown>;

/** Text of a tool result, for `tool` events (errors) and the echo model. */
export function resultText(result: { content: readonly { type: string }[] }): string {
  return result.content
    .map((c) =>
      c.type === 'textBlock'
        ? (c as unknown as { text: string }).text
        : c.type === 'jsonBlock'
          ? JSON.stringify((c as unknown as { json: unknown }).json)
          : '',
    )
    .join('');
}

export async function* agentAnswer(
  agent: Agent,
  prompt: string,
  signal: AbortSignal,
  provider: LlmFailureSource,
  transcript: Transcript = new Transcript(),
  timeouts: LlmTimeouts = DEFAULT_LLM_TIMEOUTS,
): AsyncGenerator<AnswerEvent> {
  signal.throwIfAborted();
  // Our own controller: Strands' stream keeps pumping the model after its consumer stops, so an
  // early stop (return) must abort the request before waiting for the stream to wind down.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  // A model that does not start, or stops writing, ends the answer with llm_timeout.
  const watch = new ModelWatch(provider.name, timeouts, (timeout) => controller.abort(timeout));
  const events = agent.stream(prompt, { cancelSignal: controller.signal });
  /** A model message ended: the next text or tool call belongs to a new model call. */
  let cycleEnded = false;
  const startCycle = function* (): Generator<AnswerEvent> {
    if (!cycleEnded) return;
    cycleEnded = false;
    transcript.newCycle();
    yield { type: 'cycle' };
  };
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      const event = next.value as unknown as StreamEvent;
      watch.see(event);
      const text = textDeltaOf(event);
      if (text) {
        yield* startCycle();
        transcript.current.text += text;
        yield { type: 'text', delta: text };
        continue;
      }
      switch (event.type) {
        case 'modelStreamUpdateEvent': {
          const inner = event['event'] as { type: string; start?: { type: string; name: string; toolUseId: string } };
          if (inner.type === 'modelContentBlockStartEvent' && inner.start?.type === 'toolUseStart') {
            yield* startCycle();
            transcript.current; // the cycle exists even when it has no text
            yield { type: 'tool_call', id: inner.start.toolUseId, name: inner.start.name };
          }
          break;
        }
        case 'modelMessageEvent': {
          const message = event['message'] as Agent['messages'][number];
          const cycle = transcript.current;
          for (const block of message.content) if (block.type === 'toolUseBlock') cycle.toolUses.push(block);
          cycleEnded = true;
          break;
        }
        case 'beforeToolCallEvent': {
          const use = event['toolUse'] as { name: string; toolUseId: string };
          yield { type: 'tool_start', id: use.toolUseId, name: use.name };
          break;
        }
        case 'afterToolCallEvent': {
          const use = event['toolUse'] as { name: string; toolUseId: string };
          const result = event['result'] as Parameters<typeof resultText>[0] & { status: string };
          const error = result.status === 'error' ? resultText(result) || 'the tool failed' : undefined;
          yield { type: 'tool_end', id: use.toolUseId, name: use.name, ...(error === undefined ? {} : { error }) };
          break;
        }
        case 'messageAddedEvent': {
          const message = event['message'] as Agent['messages'][number];
          transcript.added(message);
          // Tool results (run, failed or cancelled) answer the cycle that asked for them.
          for (const block of message.content) {
            if (block.type !== 'toolResultBlock') continue;
            const cycle = transcript.cycles.findLast((c) => c.toolUses.some((u) => u.toolUseId === block.toolUseId));
            cycle?.results.set(block.toolUseId, block);
          }
          break;
        }
      }
    }
    // Strands ends a cancelled invocation normally (stopReason 'cancelled'): surface it as abort.
    signal.throwIfAborted();
    if (watch.fired) throw watch.fired;
  } catch (error) {
    if (watch.fired && !signal.aborted) throw watch.fired;
    throw toLlmError(provider.name, streamFault(provider.name, error) ?? error, signal, provider.request);
  } finally {
    watch.stop();
    signal.removeEventListener('abort', onAbort);
    if (!controller.signal.aborted) controller.abort();
    await events.return(undefined as never).catch(() => undefined);
  }
}
