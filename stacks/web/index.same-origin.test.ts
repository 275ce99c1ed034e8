// web under Pulumi mocks with every option on: same-origin mode (AgentCore behind /runtimes/*),
// WAF rate limiting, custom domains for the page and for managed login, self sign-up, no MFA,
// and a pool that `pulumi destroy` may delete.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { foundationOutputs } from '../shared/outputs.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, runProgram, type ProgramRun } from '../testing/mocks.ts';

const certificate = (id: string) => `arn:aws:acm:us-east-1:${account}:certificate/${id}`;
let run: ProgramRun;

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-web',
    config: {
      'kokoro-web:runtimeAccess': 'same-origin',
      'kokoro-web:rateLimitPer5Minutes': '2000',
      'kokoro-web:domainName': 'voice.example.com',
      'kokoro-web:certificateArn': certificate('page-cert'),
      'kokoro-web:loginDomainName': 'login.example.com',
      'kokoro-web:loginCertificateArn': certificate('login-cert'),
      'kokoro-web:selfSignUp': 'true',
      'kokoro-web:mfa': 'off',
      'kokoro-web:forceDestroy': 'true',
      'kokoro-web:priceClass': 'PriceClass_All',
    },
    stackOutputs: { [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }) },
  });
});

describe('same-origin: the runtime behind the distribution', () => {
  const distribution = () => run.find('aws:cloudfront/distribution:Distribution').inputs;

  test('a second origin, the AgentCore data plane over HTTPS only', () => {
    const [, agentCore] = distribution().origins;
    expect(agentCore).toMatchObject({ originId: 'agentcore', domainName: `bedrock-agentcore.${region}.amazonaws.com` });
    expect(agentCore.customOriginConfig).toMatchObject({
      originProtocolPolicy: 'https-only',
      originSslProtocols: ['TLSv1.2'],
    });
    // CloudFront's longest wait for the next bytes of a streamed answer without a quota increase.
    expect(agentCore.customOriginConfig.originReadTimeout).toBe(60);
  });

  test('/runtimes/* goes there uncached, with every viewer header but Host and every query string', () => {
    expect(distribution().orderedCacheBehaviors).toEqual([
      {
        pathPattern: '/runtimes/*',
        targetOriginId: 'agentcore',
        viewerProtocolPolicy: 'https-only',
        allowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        cachedMethods: ['GET', 'HEAD'],
        cachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', // CachingDisabled
        originRequestPolicyId: 'b689b0a8-53d0-40ab-baf2-68738e2966ac', // AllViewerExceptHostHeader
        compress: false,
      },
    ]);
  });

  test("the CSP then allows no other origin for the runtime, and the custom login domain's", () => {
    const csp = run.find('aws:cloudfront/responseHeadersPolicy:ResponseHeadersPolicy').inputs.securityHeadersConfig
      .contentSecurityPolicy.contentSecurityPolicy;
    expect(csp).toContain(`connect-src 'self' https://cognito-idp.${region}.amazonaws.com https://login.example.com;`);
    expect(csp).not.toContain('bedrock-agentcore');
    expect(run.outputs).toMatchObject({ runtimeAccess: 'same-origin', loginDomain: 'https://login.example.com' });
  });
});

describe('custom domains', () => {
  test('the page answers on its own name, with its certificate and a modern TLS policy', () => {
    expect(run.find('aws:cloudfront/distribution:Distribution').inputs).toMatchObject({
      aliases: ['voice.example.com'],
      priceClass: 'PriceClass_All',
      viewerCertificate: {
        acmCertificateArn: certificate('page-cert'),
        sslSupportMethod: 'sni-only',
        minimumProtocolVersion: 'TLSv1.2_2021',
      },
    });
  });

  test('sign-in returns to either name, the custom one first (the one config.json names)', () => {
    const urls = ['https://voice.example.com/', 'https://d111kokoro0example.cloudfront.net/'];
    expect(run.find('aws:cognito/userPoolClient:UserPoolClient').inputs).toMatchObject({
      callbackUrls: urls,
      logoutUrls: urls,
    });
    expect(run.outputs).toMatchObject({
      pageUrl: urls[0],
      redirectUri: urls[0],
      postLogoutRedirectUri: urls[0],
    });
  });

  test('managed login on its custom domain', () => {
    expect(run.find('aws:cognito/userPoolDomain:UserPoolDomain').inputs).toMatchObject({
      domain: 'login.example.com',
      certificateArn: certificate('login-cert'),
      managedLoginVersion: 2,
    });
  });
});

test('WAF: a CloudFront web ACL in us-east-1 blocking an IP above 2000 requests in 5 minutes', () => {
  const acl = run.find('aws:wafv2/webAcl:WebAcl');
  expect(acl.inputs).toMatchObject({
    region: 'us-east-1',
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    rules: [
      {
        name: 'rate-per-ip',
        action: { block: {} },
        statement: { rateBasedStatement: { limit: 2000, aggregateKeyType: 'IP', evaluationWindowSec: 300 } },
      },
    ],
  });
  expect(run.find('aws:cloudfront/distribution:Distribution').inputs.webAclId).toBe(acl.state.arn);
});

test('self sign-up on, no MFA, no deletion protection', () => {
  const pool = run.find('aws:cognito/userPool:UserPool').inputs;
  expect(pool).toMatchObject({
    adminCreateUserConfig: { allowAdminCreateUserOnly: false },
    mfaConfiguration: 'OFF',
    deletionProtection: 'INACTIVE',
  });
  expect(pool.softwareTokenMfaConfiguration).toBeUndefined();
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});
