// What the page and the banner say about the agent's tools: the names the model calls them by
// (from the agent's own tool list), and, with the echo model, the directive that makes it call one
// (`<tool name="NAME">{json input}</tool>`, runtime/src/llm/echo-model.ts).
import type { ToolInfo } from '../web-server/web-server.ts';

/** A tool as the agent has it (a Strands tool: its spec holds the input's JSON schema). */
export interface AgentTool {
  name: string;
  description: string;
  toolSpec: { inputSchema?: unknown };
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  examples?: unknown[];
  default?: unknown;
}

/** A stand-in value of a schema: its first example or its default, else a placeholder of its type. */
function sampleValue(schema: JsonSchema): unknown {
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleInput(schema);
    default:
      return '…';
  }
}

/** An input with every required property (optional ones only where the schema gives an example). */
function sampleInput(schema: JsonSchema): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {}))
    if (schema.required?.includes(key) || property.examples?.length) input[key] = sampleValue(property);
  return input;
}

/** The echo model's directive for a call of this tool. */
export function echoDirective(tool: AgentTool): string {
  const schema = (tool.toolSpec.inputSchema ?? {}) as JsonSchema;
  return `<tool name="${tool.name}">${JSON.stringify(sampleInput(schema))}</tool>`;
}

export function toolInfo(tools: readonly AgentTool[], options: { echo: boolean }): ToolInfo[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    ...(options.echo ? { echo: echoDirective(t) } : {}),
  }));
}
