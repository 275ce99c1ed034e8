// The tools every agent of this server gets: the embedder's own (Strands tools, e.g. `tool()` with
// zod schemas, and MCP clients as Strands accepts them) plus the configured built-ins, with the
// limits every call runs under. MCP clients are listed once (on first use) and their tools shared:
// a client connects once, rather than once per session agent.
import { McpClient, type Tool, type ToolList } from '@strands-agents/sdk';
import { builtinTools, type BuiltinToolName } from './builtin.ts';
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from './guard.ts';

export interface FillerOptions {
  /** Spoken while a tool runs and nothing is playing; empty or absent: no filler. */
  text: string;
  /** How long a tool must have run (with nothing playing) before the filler is spoken. */
  afterMs: number;
}

export interface ToolOptions {
  /** The embedder's tools and MCP clients (nested arrays allowed, as Strands takes them). */
  tools?: ToolList;
  builtin?: readonly BuiltinToolName[];
  limits?: Partial<ToolLimits>;
  filler?: FillerOptions;
}

export class ToolBox {
  readonly limits: ToolLimits;
  readonly filler: FillerOptions | undefined;
  readonly #list: ToolList;
  #resolved: Promise<Tool[]> | undefined;

  constructor(options: ToolOptions = {}) {
    this.limits = { ...DEFAULT_TOOL_LIMITS, ...options.limits };
    for (const [key, value] of Object.entries(this.limits))
      if (!Number.isInteger(value) || value < 1)
        throw new RangeError(`tool ${key} must be an integer >= 1, got ${value}`);
    this.filler = options.filler?.text.trim() ? options.filler : undefined;
    if (this.filler && (!Number.isFinite(this.filler.afterMs) || this.filler.afterMs < 0))
      throw new RangeError(`filler afterMs must be a number >= 0, got ${this.filler.afterMs}`);
    this.#list = [...(options.tools ?? []), ...builtinTools(options.builtin ?? [])];
  }

  /** Whether any tool or MCP client was given. */
  get empty(): boolean {
    return this.#list.length === 0;
  }

  /** The tools, MCP clients listed (once). A tool name given twice is an error naming it. */
  tools(): Promise<Tool[]> {
    this.#resolved ??= resolve(this.#list);
    return this.#resolved;
  }

  /** Disconnects the MCP clients. */
  async close(): Promise<void> {
    await Promise.all(flatten(this.#list).clients.map((c) => c.disconnect().catch(() => undefined)));
  }
}

function flatten(list: ToolList): { tools: Tool[]; clients: McpClient[] } {
  const tools: Tool[] = [];
  const clients: McpClient[] = [];
  for (const item of list) {
    if (Array.isArray(item)) {
      const inner = flatten(item);
      tools.push(...inner.tools);
      clients.push(...inner.clients);
    } else if (item instanceof McpClient) clients.push(item);
    else if ('toolSpec' in item) tools.push(item);
    else throw new TypeError('tools: pass Strands tools and MCP clients (agents as tools are not supported here)');
  }
  return { tools, clients };
}

async function resolve(list: ToolList): Promise<Tool[]> {
  const { tools, clients } = flatten(list);
  const listed = await Promise.all(clients.map((c) => c.listTools()));
  const all = [...tools, ...listed.flat()];
  const seen = new Set<string>();
  for (const t of all) {
    if (seen.has(t.name)) throw new Error(`two tools are named "${t.name}": tool names must be unique`);
    seen.add(t.name);
  }
  return all;
}
