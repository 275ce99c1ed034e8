// One prompt through a fresh Strands agent on a provider's model, as text deltas: what every
// provider's `stream()` does (the conversational turns use the same agent loop, with memory and
// tools, through src/conversation).
import { Agent } from '@strands-agents/sdk';
import type { LlmProvider, LlmStreamOptions } from './types.ts';
import { toLlmError } from './errors.ts';
import { DEFAULT_LLM_TIMEOUTS, ModelWatch } from './model-watch.ts';
import { modelRetryStrategy } from './retries.ts';
import { streamFault } from './stream-faults.ts';

/** The text deltas among a Strands agent's stream events (undefined for every other event). */
export function textDeltaOf(event: { type: string }): string | undefined {
  if (event.type !== 'modelStreamUpdateEvent') return undefined;
  const inner = (event as unknown as { event: { type: string; delta?: { type: string; text?: string } } }).event;
  if (inner.type !== 'modelContentBlockDeltaEvent' || inner.delta?.type !== 'textDelta') return undefined;
  return inner.delta.text || undefined;
}

export async function* oneShotText(
  provider: Pick<LlmProvider, 'name' | 'model' | 'request'>,
  prompt: string,
  options: LlmStreamOptions = {},
): AsyncIterable<string> {
  const { signal } = options;
  signal?.throwIfAborted();
  const agent = new Agent({
    model: provider.model,
    printer: false,
    retryStrategy: modelRetryStrategy(),
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
  });
  // Our own controller: Strands' stream keeps pumping the model after its consumer stops, so an
  // early stop (return) must abort the request before waiting for the stream to wind down.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const watch = new ModelWatch(provider.name, options.timeouts ?? DEFAULT_LLM_TIMEOUTS, (t) => controller.abort(t));
  const events = agent.stream(prompt, { cancelSignal: controller.signal });
  try {
    for (;;) {
      const { done, value: event } = await events.next();
      if (done) break;
      watch.see(event);
      const text = textDeltaOf(event);
      if (text) yield text;
    }
    // Strands ends a cancelled invocation normally (stopReason 'cancelled'): surface it as abort.
    signal?.throwIfAborted();
    if (watch.fired) throw watch.fired;
  } catch (error) {
    if (watch.fired && !signal?.aborted) throw watch.fired;
    throw toLlmError(provider.name, streamFault(provider.name, error) ?? error, signal, provider.request);
  } finally {
    watch.stop();
    signal?.removeEventListener('abort', onAbort);
    if (!controller.signal.aborted) controller.abort();
    await events.return(undefined as never).catch(() => undefined);
  }
}
