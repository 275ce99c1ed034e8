// The built-in tools by either of their names: the configuration's (`time`, `calculator`) and the
// model's (`current_time`, `calculate`).
import { describe, expect, test } from '@jest/globals';
import { BUILTIN_TOOL_NAMES, builtinToolId, builtinTools, type BuiltinToolName } from './builtin.ts';

describe('built-in tools', () => {
  test('each name makes its tool, and a tool named both ways is made once', () => {
    expect(builtinTools(['time']).map((t) => t.name)).toEqual(['current_time']);
    expect(builtinTools(['calculate', 'current_time']).map((t) => t.name)).toEqual(['calculate', 'current_time']);
    expect(builtinTools(['calculator', 'calculate', 'time', 'current_time']).map((t) => t.name)).toEqual([
      'calculate',
      'current_time',
    ]);
    for (const name of BUILTIN_TOOL_NAMES) expect(builtinTools([name])).toHaveLength(1);
  });

  test('a name that is no built-in tool is refused by name', () => {
    expect(builtinToolId('shell')).toBeUndefined();
    expect(builtinToolId('toString')).toBeUndefined();
    expect(() => builtinTools(['shell' as BuiltinToolName])).toThrow('no built-in tool is named "shell"');
  });
});
