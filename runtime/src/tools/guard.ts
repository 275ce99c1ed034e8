// Tool calls that cannot hold a turn: Strands ExecuteToolStage middleware that gives every tool
// call (user tools, MCP tools, built-ins) a timeout and a bounded result size. Both become error
// results the model sees and can speak about; a timed-out tool's cancel signal is aborted, so a
// tool that honours `context.cancelSignal` stops its work. (Strands has no per-tool timeout or
// result limit of its own: its sliding window truncates big results only on context overflow.)
import {
  ExecuteToolStage,
  TextBlock,
  Tool,
  ToolResultBlock,
  type MiddlewareHandlerOf,
  type ToolContext,
  type ToolSpec,
  type ToolStreamGenerator,
} from '@strands-agents/sdk';

export interface ToolLimits {
  /** A call still running after this long fails with a timeout error. */
  timeoutMs: number;
  /** A result longer than this (text, or JSON as text) fails with a result-too-large error. */
  maxResultChars: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = { timeoutMs: 10_000, maxResultChars: 8_000 };

/** Runs `inner` with a cancel signal that also aborts when `signal` does (the timeout). */
class SignalledTool extends Tool {
  readonly #inner: Tool;
  readonly #signal: AbortSignal;
  constructor(inner: Tool, signal: AbortSignal) {
    super();
    this.#inner = inner;
    this.#signal = signal;
  }
  get name(): string {
    return this.#inner.name;
  }
  get description(): string {
    return this.#inner.description;
  }
  get toolSpec(): ToolSpec {
    return this.#inner.toolSpec;
  }
  stream(context: ToolContext): ToolStreamGenerator {
    return this.#inner.stream({ ...context, cancelSignal: AbortSignal.any([context.cancelSignal, this.#signal]) });
  }
}

const errorResult = (toolUseId: string, message: string) =>
  new ToolResultBlock({ toolUseId, status: 'error', content: [new TextBlock(message)] });

/** Characters of a result's content as the model gets it (text, or JSON as text). */
export function resultChars(result: ToolResultBlock): number {
  let n = 0;
  for (const c of result.content) {
    if (c.type === 'textBlock') n += c.text.length;
    else if (c.type === 'jsonBlock') n += JSON.stringify(c.json)?.length ?? 0;
  }
  return n;
}

export function toolGuard(limits: ToolLimits): MiddlewareHandlerOf<typeof ExecuteToolStage> {
  return async function* (context, next) {
    const { toolUse } = context;
    const timeout = new AbortController();
    const tool = context.tool ? new SignalledTool(context.tool, timeout.signal) : undefined;
    const inner = next(tool ? { ...context, tool } : context);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => {
        timeout.abort(new Error(`tool ${toolUse.name} timed out`));
        resolve('expired');
      }, limits.timeoutMs);
    });
    try {
      for (;;) {
        const step = await Promise.race([inner.next(), expired]);
        if (step === 'expired') {
          // Not awaited: a tool that ignores its signal may never settle.
          void inner.return(undefined as never).catch(() => undefined);
          return {
            result: errorResult(
              toolUse.toolUseId,
              `The tool ${toolUse.name} did not answer within ${limits.timeoutMs} ms and was stopped.`,
            ),
          };
        }
        if (step.done) {
          const { result } = step.value;
          const chars = resultChars(result);
          if (chars <= limits.maxResultChars) return step.value;
          return {
            result: errorResult(
              toolUse.toolUseId,
              `The tool ${toolUse.name} returned ${chars} characters, over the limit of ${limits.maxResultChars}; ` +
                'its result was dropped.',
            ),
          };
        }
        yield step.value;
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
