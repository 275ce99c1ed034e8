import { describe, expect, test } from '@jest/globals';
import { calculate } from './calculator.ts';
import { ToolBox } from './toolbox.ts';
import { tool } from '@strands-agents/sdk';
import { z } from 'zod';

describe('calculate', () => {
  test.each<[string, number]>([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['10 % 4', 2],
    ['1,299.99 * 2', 2599.98],
    ['7 × 6 ÷ 3', 14],
    ['.5 + 1e3', 1000.5],
    ['--3', 3],
  ])('%s = %d', (expression, value) => {
    expect(calculate(expression)).toBeCloseTo(value, 9);
  });

  test.each<[string, RegExp]>([
    ['1 / 0', /division by zero/],
    ['2 +', /ends too early/],
    ['(1 + 2', /not closed/],
    ['1 + 2)', /unexpected "\)"/],
    ['process.exit()', /cannot read "process.exit\(\)"/],
    ['3 dollars', /cannot read "dollars"/],
    ['10 ^ 400', /not a finite number/],
    ['1'.repeat(501), /longer than 500/],
  ])('%s is refused', (expression, message) => {
    expect(() => calculate(expression)).toThrow(message);
  });
});

describe('ToolBox', () => {
  const named = (name: string) => tool({ name, description: 'x', inputSchema: z.object({}), callback: () => 'ok' });
  test('built-ins are off unless asked for; names must be unique; limits are checked', async () => {
    expect(await new ToolBox().tools()).toEqual([]);
    expect((await new ToolBox({ builtin: ['time', 'calculator'] }).tools()).map((t) => t.name)).toEqual([
      'current_time',
      'calculate',
    ]);
    await expect(new ToolBox({ tools: [named('calculate')], builtin: ['calculator'] }).tools()).rejects.toThrow(
      'two tools are named "calculate"',
    );
    expect(() => new ToolBox({ limits: { timeoutMs: 0 } })).toThrow('tool timeoutMs must be an integer >= 1, got 0');
    expect(new ToolBox({ filler: { text: '  ', afterMs: 100 } }).filler).toBeUndefined();
  });
});
