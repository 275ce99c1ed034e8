// web under Pulumi mocks with the defaults (direct mode, no WAF, no custom domains): the page
// bucket is private and readable only by the distribution, the distribution is HTTPS only with
// the page's headers, and the app client is public with the code grant only.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { foundationOutputs, webOutputs } from '../shared/outputs.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, runProgram, type ProgramRun } from '../testing/mocks.ts';
import { PRIVATE_BUCKET, privateSettingsOf } from '../testing/private-bucket.ts';
import { pageBucketPolicy } from './page-bucket.ts';
import { loginDomainPrefix } from './sign-in.ts';

let run: ProgramRun;
const distributionArn = `arn:aws:cloudfront::${account}:distribution/E2KOKORO0EXAMPLE`;
const pageUrl = 'https://d111kokoro0example.cloudfront.net/';
const pool = `${region}_KoKoRo123`;

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-web',
    stackOutputs: { [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }) },
  });
});

test('reads only the foundation region, and exports exactly its contract', () => {
  expect(run.reads).toEqual({ [`${organization}/kokoro-foundation/dev`]: ['region'] });
  expect(Object.keys(run.outputs).sort()).toEqual([...webOutputs].sort());
  const prefix = loginDomainPrefix('dev', account, region);
  expect(run.outputs).toEqual({
    region,
    pageUrl,
    pageBucketName: 'kokoro-dev-page-0a1b2c3',
    distributionId: 'E2KOKORO0EXAMPLE',
    distributionDomainName: 'd111kokoro0example.cloudfront.net',
    runtimeAccess: 'direct',
    userPoolId: pool,
    userPoolClientId: '4kokoro0page0client0exampl',
    jwtDiscoveryUrl: `https://cognito-idp.${region}.amazonaws.com/${pool}/.well-known/openid-configuration`,
    authority: `https://cognito-idp.${region}.amazonaws.com/${pool}`,
    loginDomain: `https://${prefix}.auth.${region}.amazoncognito.com`,
    loginDomainAliasTarget: 'd222kokoro0login.cloudfront.net',
    redirectUri: pageUrl,
    postLogoutRedirectUri: pageUrl,
    scope: 'openid email',
    createUserCommand: `aws cognito-idp admin-create-user --region ${region} --user-pool-id ${pool} --username USER@EXAMPLE.COM --user-attributes Name=email,Value=USER@EXAMPLE.COM Name=email_verified,Value=true --desired-delivery-mediums EMAIL`,
  });
  expect(prefix).toMatch(/^kokoro-dev-[0-9a-f]{10}$/);
});

describe('page bucket', () => {
  test('blocks all public access, enforces the owner, encrypts, and is no website', () => {
    expect(privateSettingsOf(run)).toEqual(PRIVATE_BUCKET);
    expect(
      run.find('aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration').inputs.rules,
    ).toEqual([{ applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } }]);
    expect(run.all('aws:s3/bucketWebsiteConfiguration:BucketWebsiteConfiguration')).toEqual([]);
    expect(run.find('aws:s3/bucket:Bucket').inputs.acl).toBeUndefined();
  });

  test('its policy lets only CloudFront, on behalf of this distribution, read the files, over TLS', () => {
    const bucketArn = 'arn:aws:s3:::kokoro-dev-page-0a1b2c3';
    const policy = run.find('aws:s3/bucketPolicy:BucketPolicy');
    expect(policy.inputs.bucket).toBe(run.find('aws:s3/bucket:Bucket').id);
    expect(JSON.parse(policy.inputs.policy)).toEqual(pageBucketPolicy(bucketArn, distributionArn));
    // Attached once the bucket is private, never to an open one.
    expect(policy.dependencies).toEqual(
      expect.arrayContaining([expect.stringMatching(/BucketPublicAccessBlock::kokoro-dev-page-public-access$/)]),
    );
  });
});

describe('distribution', () => {
  const distribution = () => run.find('aws:cloudfront/distribution:Distribution').inputs;

  test('serves the bucket through its origin access control (SigV4, always signed), nothing else', () => {
    const oac = run.find('aws:cloudfront/originAccessControl:OriginAccessControl');
    expect(oac.inputs).toMatchObject({
      originAccessControlOriginType: 's3',
      signingBehavior: 'always',
      signingProtocol: 'sigv4',
    });
    expect(distribution().origins).toEqual([
      {
        originId: 'page',
        domainName: `kokoro-dev-page-0a1b2c3.s3.${region}.amazonaws.com`,
        originAccessControlId: oac.id,
      },
    ]);
    expect(distribution().orderedCacheBehaviors).toEqual([]);
  });

  test('redirects HTTP to HTTPS, caches the files, adds the page headers, index.html at the root', () => {
    expect(distribution()).toMatchObject({
      enabled: true,
      defaultRootObject: 'index.html',
      viewerCertificate: { cloudfrontDefaultCertificate: true },
      defaultCacheBehavior: {
        targetOriginId: 'page',
        viewerProtocolPolicy: 'redirect-to-https',
        allowedMethods: ['GET', 'HEAD', 'OPTIONS'],
        cachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6',
        responseHeadersPolicyId: run.find('aws:cloudfront/responseHeadersPolicy:ResponseHeadersPolicy').id,
      },
    });
    expect(distribution().webAclId).toBeUndefined();
    expect(distribution().aliases).toBeUndefined();
  });

  test("the page's CSP lets it reach its origin, the user pool and the AgentCore data plane, nothing more", () => {
    const headers = run.find('aws:cloudfront/responseHeadersPolicy:ResponseHeadersPolicy').inputs;
    const login = run.outputs.loginDomain;
    expect(headers.securityHeadersConfig.contentSecurityPolicy).toEqual({
      override: true,
      contentSecurityPolicy:
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
        `connect-src 'self' https://cognito-idp.${region}.amazonaws.com ${login} ` +
        `https://bedrock-agentcore.${region}.amazonaws.com wss://bedrock-agentcore.${region}.amazonaws.com; ` +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    });
    expect(headers.securityHeadersConfig).toMatchObject({
      strictTransportSecurity: { accessControlMaxAgeSec: 63_072_000, includeSubdomains: true, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: 'DENY', override: true },
      referrerPolicy: { referrerPolicy: 'no-referrer', override: true },
    });
  });
});

describe('sign-in', () => {
  test('the app client is public: no secret, the code grant only, callback and sign-out at the page', () => {
    const client = run.find('aws:cognito/userPoolClient:UserPoolClient').inputs;
    expect(client).toMatchObject({
      userPoolId: pool,
      generateSecret: false,
      allowedOauthFlowsUserPoolClient: true,
      allowedOauthFlows: ['code'],
      allowedOauthScopes: ['openid', 'email'],
      supportedIdentityProviders: ['COGNITO'],
      callbackUrls: [pageUrl],
      logoutUrls: [pageUrl],
      explicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      preventUserExistenceErrors: 'ENABLED',
      enableTokenRevocation: true,
    });
  });

  test('only administrators create users, by e-mail address; the pool is protected from deletion', () => {
    const userPool = run.find('aws:cognito/userPool:UserPool').inputs;
    expect(userPool).toMatchObject({
      userPoolTier: 'ESSENTIALS',
      usernameAttributes: ['email'],
      adminCreateUserConfig: { allowAdminCreateUserOnly: true },
      mfaConfiguration: 'OPTIONAL',
      softwareTokenMfaConfiguration: { enabled: true },
      deletionProtection: 'ACTIVE',
    });
    expect(userPool.adminCreateUserConfig.inviteMessageTemplate.emailMessage).toBe(
      `Sign in at ${pageUrl} as {username} with the temporary password {####}; you will choose your own.`,
    );
  });

  test("managed login (version 2) on the stack's prefix, styled with Cognito's defaults for the page client", () => {
    expect(run.find('aws:cognito/userPoolDomain:UserPoolDomain').inputs).toEqual({
      userPoolId: pool,
      domain: loginDomainPrefix('dev', account, region),
      managedLoginVersion: 2,
    });
    expect(run.find('aws:cognito/managedLoginBranding:ManagedLoginBranding').inputs).toEqual({
      userPoolId: pool,
      clientId: '4kokoro0page0client0exampl',
      useCognitoProvidedValues: true,
    });
  });
});

test('no WAF unless rateLimitPer5Minutes is set', () => {
  expect(run.all('aws:wafv2/webAcl:WebAcl')).toEqual([]);
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('its one IAM document, the bucket policy, passes the service authorization reference check', async () => {
  const documents = policyDocumentsOf(run.resources);
  expect(documents.map((d) => d.resource)).toEqual(['aws:s3/bucketPolicy:BucketPolicy::kokoro-dev-page-policy']);
  expect(await referenceProblems(documents)).toEqual([]);
});
