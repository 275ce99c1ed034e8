// config.json's checks: the values the stacks pass make a valid config, and each value the page
// could not use is refused with the field named.
import { expect, test } from '@jest/globals';
import { pageConfig, type PageConfig } from './page-config.ts';

const good: PageConfig = {
  region: 'eu-west-1',
  runtimeArn: 'arn:aws:bedrock-agentcore:eu-west-1:111122223333:runtime/kokoro_dev_agent-AbCdE12345',
  qualifier: 'live',
  mode: 'same-origin',
  auth: {
    authority: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123',
    clientId: '4kokoro0page0client0exampl',
    redirectUri: 'https://voice.example.com/',
    postLogoutRedirectUri: 'https://voice.example.com/',
    scope: 'openid email',
    logoutUrl: 'https://kokoro-dev.auth.eu-west-1.amazoncognito.com/logout',
  },
};

test('a config of well-formed values is returned as it is', () => {
  expect(pageConfig(good)).toEqual(good);
  expect(pageConfig({ ...good, auth: null })).toEqual({ ...good, auth: null });
});

test.each([
  [{ region: 'europe' }, 'region must be an AWS region, got "europe"'],
  [{ runtimeArn: 'arn:aws:iam::111122223333:role/x' }, "runtimeArn (agent-runtime's agentRuntimeArn) must be"],
  [{ region: 'us-east-1' }, "runtimeArn must be in the page's region us-east-1"],
  [{ qualifier: 'live endpoint' }, 'qualifier must be an endpoint name'],
  [{ mode: 'proxy' }, "mode must be 'direct' or 'same-origin', got \"proxy\""],
  [{ auth: { ...good.auth!, redirectUri: 'http://voice.example.com/' } }, 'auth.redirectUri must be an https URL'],
  [{ auth: { ...good.auth!, logoutUrl: 'http://login.example.com/logout' } }, 'auth.logoutUrl must be an https URL'],
  [{ auth: { ...good.auth!, clientId: 'Bad Client' } }, 'auth.clientId must be a Cognito app client id'],
  [{ auth: { ...good.auth!, scope: 'email' } }, "auth.scope must include 'openid'"],
])('refuses %j', (change, message) => {
  expect(() => pageConfig({ ...good, ...change } as PageConfig)).toThrow(`config.json: ${message}`);
});
