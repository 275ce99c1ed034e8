// The page's content security policy on its own: the runtime's origins only in direct mode, and
// a bad region or login origin refused rather than written into the header.
import { expect, test } from '@jest/globals';
import { contentSecurityPolicy } from './page-headers.ts';

const login = 'https://kokoro-voice.auth.eu-west-1.amazoncognito.com';

test("direct mode adds the data plane's https and wss origins to connect-src; same-origin adds none", () => {
  const connect = (runtimeAccess: 'direct' | 'same-origin') =>
    contentSecurityPolicy({ region: 'eu-west-1', runtimeAccess, loginOrigin: login })
      .split('; ')
      .find((d) => d.startsWith('connect-src '));
  expect(connect('same-origin')).toBe(`connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com ${login}`);
  expect(connect('direct')).toBe(
    `connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com ${login} ` +
      'https://bedrock-agentcore.eu-west-1.amazonaws.com wss://bedrock-agentcore.eu-west-1.amazonaws.com',
  );
});

test('refuses a region or login origin that would widen or break the policy', () => {
  expect(() => contentSecurityPolicy({ region: '*', runtimeAccess: 'direct', loginOrigin: login })).toThrow(
    "'*' is not an AWS region",
  );
  for (const loginOrigin of ['http://login.example.com', 'https://login.example.com/path', 'https://x; script-src *']) {
    expect(() => contentSecurityPolicy({ region: 'eu-west-1', runtimeAccess: 'direct', loginOrigin })).toThrow(
      /must be https:\/\/<host>, without a path/,
    );
  }
});
