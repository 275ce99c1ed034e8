import { describe, expect, test } from '@jest/globals';
import { RegexSentenceSplitter } from './bench-policies.ts';

describe('RegexSentenceSplitter (the reference policy)', () => {
  test('splits only on terminator + whitespace, as the reference does', () => {
    const s = new RegexSentenceSplitter();
    expect(s.push('Hello Dr. Smith. It costs $29')).toEqual(['Hello Dr.', 'Smith.']);
    expect(s.push('.99 today. And')).toEqual(['It costs $29.99 today.']);
    expect(s.flush()).toEqual(['And']);
    expect(s.flush()).toEqual([]);
  });
});
