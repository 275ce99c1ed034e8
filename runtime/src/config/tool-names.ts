// The built-in tools' names, the one vocabulary for them: configuration (BUILTIN_TOOLS, npm start
// --tools, ToolOptions.builtin) takes the short names `time` and `calculator`, and also the names
// the model calls them by (`current_time`, `calculate`), which a tool directive of the echo model
// names too (it takes the short ones as well). Here, below every layer, because both the tools
// and the echo model read it.

/** Each built-in tool: its configuration name and the name the model calls it by. */
export const BUILTIN_TOOL_IDS = { time: 'current_time', calculator: 'calculate' } as const;

type Short = keyof typeof BUILTIN_TOOL_IDS;
/** The name a model calls a built-in tool by. */
export type BuiltinToolId = (typeof BUILTIN_TOOL_IDS)[Short];

/** Every accepted name of a built-in tool, the short names first. */
export const BUILTIN_TOOL_NAMES = ['time', 'calculator', 'current_time', 'calculate'] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** What BUILTIN_TOOLS takes, for messages. */
export const BUILTIN_TOOL_CHOICES = `${Object.keys(BUILTIN_TOOL_IDS).join(', ')} (or by the names the model calls them, ${Object.values(BUILTIN_TOOL_IDS).join(', ')})`;

/** The tool a name (either spelling) stands for; undefined when it names no built-in tool. */
export function builtinToolId(name: string): BuiltinToolId | undefined {
  if (Object.hasOwn(BUILTIN_TOOL_IDS, name)) return BUILTIN_TOOL_IDS[name as Short];
  return (Object.values(BUILTIN_TOOL_IDS) as string[]).includes(name) ? (name as BuiltinToolId) : undefined;
}
