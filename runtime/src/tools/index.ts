// Tools for the agent loop: the tool box (embedder's tools, MCP clients, built-ins), the guard
// every call runs under, and the built-ins.
export { ToolBox, type ToolOptions, type FillerOptions } from './toolbox.ts';
export { toolGuard, DEFAULT_TOOL_LIMITS, resultChars, type ToolLimits } from './guard.ts';
export {
  BUILTIN_TOOL_CHOICES,
  BUILTIN_TOOL_IDS,
  BUILTIN_TOOL_NAMES,
  builtinToolId,
  builtinTools,
  currentTimeTool,
  calculatorTool,
  type BuiltinToolId,
  type BuiltinToolName,
} from './builtin.ts';
export { calculate, CalculationError } from './calculator.ts';
