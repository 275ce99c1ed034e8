// The built-in tools (off unless configured, BUILTIN_TOOLS): small, safe, offline ones that make
// the demo useful: the current date and time in a time zone, and an arithmetic calculator. Their
// names (`time` or `current_time`, `calculator` or `calculate`): config/tool-names.ts.
import { tool } from '@strands-agents/sdk';
import type { Tool } from '@strands-agents/sdk';
import { z } from 'zod';
import { calculate } from './calculator.ts';
import { builtinToolId, type BuiltinToolId, type BuiltinToolName } from '../config/tool-names.ts';

export {
  BUILTIN_TOOL_CHOICES,
  BUILTIN_TOOL_IDS,
  BUILTIN_TOOL_NAMES,
  builtinToolId,
  type BuiltinToolId,
  type BuiltinToolName,
} from '../config/tool-names.ts';

/** `now` is for tests; the tool reads the clock otherwise. */
export function currentTimeTool(now: () => Date = () => new Date()): Tool {
  return tool({
    name: 'current_time',
    description:
      'The current date and time, optionally in a given IANA time zone such as "Europe/Paris" or "America/New_York" (default UTC).',
    inputSchema: z.object({
      time_zone: z
        .string()
        .max(64)
        .optional()
        .describe('IANA time zone name, e.g. "Asia/Tokyo"')
        .meta({ examples: ['Europe/Paris'] }),
    }),
    callback: ({ time_zone }) => {
      const zone = time_zone?.trim() || 'UTC';
      let format: Intl.DateTimeFormat;
      try {
        format = new Intl.DateTimeFormat('en-GB', {
          timeZone: zone,
          dateStyle: 'full',
          timeStyle: 'long',
        });
      } catch {
        throw new Error(`unknown time zone "${zone}" (use an IANA name such as "Europe/Paris")`);
      }
      return `${format.format(now())} (${zone})`;
    },
  });
}

export function calculatorTool(): Tool {
  return tool({
    name: 'calculate',
    description:
      'Evaluates an arithmetic expression with numbers, + - * / % ^ and parentheses (no units, no currencies), e.g. "(12.5 * 4) / 3".',
    inputSchema: z.object({
      expression: z
        .string()
        .min(1)
        .max(500)
        .meta({ examples: ['6 * 7'] }),
    }),
    callback: ({ expression }) => {
      const value = calculate(expression);
      // Round off binary noise (0.1 + 0.2) without hiding real precision.
      return String(Number(value.toPrecision(12)));
    },
  });
}

const MAKERS: Record<BuiltinToolId, () => Tool> = { current_time: () => currentTimeTool(), calculate: calculatorTool };

/** The tools of these names (either spelling; a tool named twice is made once). */
export function builtinTools(names: readonly BuiltinToolName[]): Tool[] {
  const ids = new Set(
    names.map((name) => {
      const id = builtinToolId(name);
      if (!id) throw new RangeError(`no built-in tool is named ${JSON.stringify(name)}`);
      return id;
    }),
  );
  return [...ids].map((id) => MAKERS[id]());
}
