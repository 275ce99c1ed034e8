// The managed login domain's prefix and origin: unique per account, region and stack, within
// Cognito's naming rule, and refused with the key named when a configured one breaks it.
import { describe, expect, test } from '@jest/globals';
import { checkLoginDomainPrefix, loginDomainPrefix, loginOrigin } from './sign-in.ts';

describe('loginDomainPrefix', () => {
  test('differs by account, region and stack, and keeps to the rule', () => {
    const prefixes = new Set([
      loginDomainPrefix('dev', '111122223333', 'us-east-1'),
      loginDomainPrefix('dev', '444455556666', 'us-east-1'),
      loginDomainPrefix('dev', '111122223333', 'eu-west-1'),
      loginDomainPrefix('prod', '111122223333', 'us-east-1'),
    ]);
    expect(prefixes.size).toBe(4);
    for (const prefix of prefixes) expect(prefix).toMatch(/^kokoro-(dev|prod)-[0-9a-f]{10}$/);
    expect(loginDomainPrefix('Team_AWS.Cognito-Staging--very-long-stack-name', '1', 'r')).toMatch(
      /^kokoro-team-staging-very-lo-[0-9a-f]{10}$/,
    );
    expect(loginDomainPrefix('aws', '1', 'r')).toMatch(/^kokoro-stack-[0-9a-f]{10}$/);
  });
});

test('a prefix with a reserved word or bad characters is refused, naming the key', () => {
  expect(() => checkLoginDomainPrefix('my-aws-login')).toThrow(/config 'loginDomainPrefix' must be/);
  expect(() => checkLoginDomainPrefix('Upper')).toThrow(/got 'Upper'/);
  expect(() => checkLoginDomainPrefix('-dash')).toThrow(/loginDomainPrefix/);
  expect(checkLoginDomainPrefix('kokoro-voice')).toBe('kokoro-voice');
});

test('the login origin of a prefix is regional under amazoncognito.com; a custom domain is its own', () => {
  expect(loginOrigin({ prefix: 'kokoro-voice' }, 'eu-west-1')).toBe(
    'https://kokoro-voice.auth.eu-west-1.amazoncognito.com',
  );
  expect(loginOrigin({ name: 'login.example.com', certificateArn: 'x' }, 'eu-west-1')).toBe(
    'https://login.example.com',
  );
});
