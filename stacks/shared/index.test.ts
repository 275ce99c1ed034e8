// Naming, tagging and stack-reference helpers.
import { describe, expect, test, beforeAll } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import {
  defaultTags,
  intSetting,
  numberSetting,
  resourceName,
  retentionDaysSetting,
  slug,
  stackRefName,
} from './index.ts';

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource: () => {
        throw new Error('no resources expected');
      },
      call: () => {
        throw new Error('no calls expected');
      },
    },
    'kokoro-foundation',
    'Dev_Stack.With.A.Very.Long.Name',
    false,
    'acme',
  );
});

describe('stackRefName', () => {
  test('fills org, project and stack from the defaults', () => {
    expect(stackRefName(undefined, 'kokoro-foundation', 'acme', 'dev')).toBe('acme/kokoro-foundation/dev');
    expect(stackRefName('', 'kokoro-foundation', 'acme', 'dev')).toBe('acme/kokoro-foundation/dev');
    expect(stackRefName('prod', 'kokoro-foundation', 'acme', 'dev')).toBe('acme/kokoro-foundation/prod');
    expect(stackRefName('other/prod', 'kokoro-foundation', 'acme', 'dev')).toBe('acme/other/prod');
    expect(stackRefName('org2/other/prod', 'kokoro-foundation', 'acme', 'dev')).toBe('org2/other/prod');
  });

  test('rejects more than three parts', () => {
    expect(() => stackRefName('a/b/c/d', 'p', 'o', 's')).toThrow(/org\/project\/stack/);
    expect(() => stackRefName('//', 'p', 'o', 's')).toThrow(/org\/project\/stack/);
  });
});

describe('names and tags', () => {
  test('slug keeps lower-case letters, digits and single dashes', () => {
    expect(slug('  Dev_Stack..1 ')).toBe('dev-stack-1');
  });

  test('resourceName cuts the stack part to 12 characters', () => {
    expect(resourceName('Weights')).toBe('kokoro-dev-stack-wi-weights');
    expect(() => resourceName('--')).toThrow(/suffix/);
  });

  test('defaultTags name the app, project and stack, and take extras', () => {
    expect(defaultTags({ layer: 'x' })).toEqual({
      app: 'kokoro',
      'pulumi-project': 'kokoro-foundation',
      'pulumi-stack': 'Dev_Stack.With.A.Very.Long.Name',
      'managed-by': 'pulumi',
      layer: 'x',
    });
  });
});

describe('intSetting', () => {
  test('uses the default and checks the range', () => {
    const config = new pulumi.Config('test');
    expect(intSetting(config, 'missing', 3, { min: 1, max: 5 })).toBe(3);
    expect(() => intSetting(config, 'missing', 9, { min: 1, max: 5 })).toThrow(
      "config 'test:missing' must be an integer in [1, 5], got 9",
    );
  });
});

describe('numberSetting and retentionDaysSetting', () => {
  test('read the set value, fall back to the default, and name the key when refused', () => {
    pulumi.runtime.setAllConfig({ 'test:share': '0.25', 'test:days': '14', 'test:badDays': '10', 'test:nan': 'x' });
    const config = new pulumi.Config('test');
    expect(numberSetting(config, 'share', 0.1, { min: 0, max: 1 })).toBe(0.25);
    expect(numberSetting(config, 'missing', 0.1, { min: 0, max: 1 })).toBe(0.1);
    expect(() => numberSetting(config, 'missing', 2, { min: 0, max: 1 })).toThrow(
      "config 'test:missing' must be a number in [0, 1], got 2",
    );
    expect(() => numberSetting(config, 'nan', 0.1, { min: 0, max: 1 })).toThrow(/test:nan/);
    expect(retentionDaysSetting(config, 'days', 30)).toBe(14);
    expect(retentionDaysSetting(config, 'missing', 30)).toBe(30);
    expect(() => retentionDaysSetting(config, 'badDays', 30)).toThrow(
      /^config 'test:badDays' must be a retention CloudWatch Logs accepts \(1, 3, 5, 7, 14, 30, .*3653 days\), got 10$/,
    );
  });
});
