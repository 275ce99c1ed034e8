// The web layers' CrossGuard policies called directly with passing and failing resources:
// CloudFront's HTTPS and origin rules, the CloudFront-scoped bucket policy, no S3 website, and
// Cognito's public code-grant clients.
import { describe, expect, test } from '@jest/globals';
import { checkResource as check, policyDocumentJson as doc } from '../testing/policy-check.ts';

describe('CloudFront', () => {
  const type = 'aws:cloudfront/distribution:Distribution';
  const page = { originId: 'page', domainName: 'b.s3.us-east-1.amazonaws.com', originAccessControlId: 'oac' };
  const good = {
    defaultCacheBehavior: { viewerProtocolPolicy: 'redirect-to-https' },
    orderedCacheBehaviors: [{ pathPattern: '/runtimes/*', viewerProtocolPolicy: 'https-only' }],
    viewerCertificate: {
      acmCertificateArn: 'arn:aws:acm:us-east-1:1:certificate/c',
      minimumProtocolVersion: 'TLSv1.2_2021',
    },
    origins: [
      page,
      {
        originId: 'agentcore',
        domainName: 'bedrock-agentcore.us-east-1.amazonaws.com',
        customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: ['TLSv1.2'] },
      },
    ],
  };

  test('behaviors HTTPS only, a modern TLS policy with an own certificate, custom origins over TLS 1.2', async () => {
    expect(await check('cloudfront-https-only', type, good)).toEqual([]);
    // The default certificate's policy is CloudFront's to choose (it cannot be set).
    expect(
      await check('cloudfront-https-only', type, {
        ...good,
        viewerCertificate: { cloudfrontDefaultCertificate: true },
      }),
    ).toEqual([]);
    expect(
      await check('cloudfront-https-only', type, {
        defaultCacheBehavior: { viewerProtocolPolicy: 'allow-all' },
        orderedCacheBehaviors: [{ pathPattern: '/x/*', viewerProtocolPolicy: 'allow-all' }],
        viewerCertificate: {
          acmCertificateArn: 'arn:aws:acm:us-east-1:1:certificate/c',
          minimumProtocolVersion: 'TLSv1',
        },
        origins: [
          {
            originId: 'api',
            domainName: 'api.example.com',
            customOriginConfig: { originProtocolPolicy: 'match-viewer', originSslProtocols: ['TLSv1.1', 'TLSv1.2'] },
          },
        ],
      }),
    ).toEqual([
      "behavior 'default' allows plain HTTP (viewerProtocolPolicy allow-all)",
      "behavior '/x/*' allows plain HTTP (viewerProtocolPolicy allow-all)",
      'minimumProtocolVersion TLSv1 is not one of TLSv1.2_2021, TLSv1.2_2025, TLSv1.3_2025',
      "origin 'api' is reached over match-viewer, not https-only",
      "origin 'api' accepts TLSv1.1",
    ]);
  });

  test('S3 origins only through origin access control: no OAI, no website endpoint', async () => {
    const policy = 'cloudfront-s3-origin-access-control';
    expect(await check(policy, type, good)).toEqual([]);
    expect(
      await check(policy, type, {
        origins: [
          { originId: 'open', domainName: 'b.s3.eu-west-1.amazonaws.com' },
          {
            originId: 'oai',
            domainName: 'b.s3.amazonaws.com',
            s3OriginConfig: { originAccessIdentity: 'origin-access-identity/cloudfront/E1' },
          },
          { originId: 'site', domainName: 'b.s3-website-us-east-1.amazonaws.com', originAccessControlId: 'oac' },
        ],
      }),
    ).toEqual([
      "origin 'open' has no origin access control",
      "origin 'oai' uses a legacy origin access identity instead of origin access control",
      "origin 'oai' has no origin access control",
      "origin 'site' is an S3 website endpoint, which serves the bucket publicly",
    ]);
  });

  test('a bucket policy lets CloudFront read only on behalf of one named distribution', async () => {
    const policy = 's3-policy-cloudfront-scoped';
    const bucketType = 'aws:s3/bucketPolicy:BucketPolicy';
    const read = (Condition?: object) =>
      doc({
        Sid: 'Cf',
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Resource: 'arn:aws:s3:::b/*',
        ...(Condition ? { Condition } : {}),
      });
    const one = 'arn:aws:cloudfront::111122223333:distribution/E2KOKORO0EXAMPLE';
    expect(await check(policy, bucketType, { policy: read({ StringEquals: { 'AWS:SourceArn': one } }) })).toEqual([]);
    expect(await check(policy, bucketType, { policy: read({ ArnEquals: { 'aws:SourceArn': [one] } }) })).toEqual([]);
    for (const condition of [
      undefined,
      { StringLike: { 'AWS:SourceArn': 'arn:aws:cloudfront::111122223333:distribution/*' } },
      { StringEquals: { 'AWS:SourceArn': 'arn:aws:cloudfront::111122223333:distribution/*' } },
      { StringEquals: { 'AWS:SourceAccount': '111122223333' } },
    ]) {
      expect(await check(policy, bucketType, { policy: read(condition) })).toEqual([
        "statement 'Cf' lets CloudFront read without naming one distribution in AWS:SourceArn",
      ]);
    }
  });

  test('no bucket is a website', async () => {
    expect(await check('s3-no-website', 'aws:s3/bucketWebsiteConfiguration:BucketWebsiteConfiguration', {})).toEqual([
      'S3 website hosting serves the bucket publicly over HTTP: serve it through CloudFront instead',
    ]);
    expect(await check('s3-no-website', 'aws:s3/bucket:Bucket', {})).toEqual([]);
  });
});

test('Cognito app clients: public, code grant only, no password flows, HTTPS callbacks', async () => {
  const type = 'aws:cognito/userPoolClient:UserPoolClient';
  const page = {
    generateSecret: false,
    allowedOauthFlowsUserPoolClient: true,
    allowedOauthFlows: ['code'],
    explicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
    callbackUrls: ['https://voice.example.com/', 'http://localhost:3000/'],
    logoutUrls: ['https://voice.example.com/'],
  };
  expect(await check('cognito-public-code-client', type, page)).toEqual([]);
  expect(
    await check('cognito-public-code-client', type, {
      generateSecret: true,
      allowedOauthFlowsUserPoolClient: true,
      allowedOauthFlows: ['code', 'implicit', 'client_credentials'],
      explicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      callbackUrls: ['http://voice.example.com/'],
    }),
  ).toEqual([
    'the client has a secret (a browser cannot keep one)',
    'grants other than the code grant: code, implicit, client_credentials',
    'password flows bypass managed login: ALLOW_USER_PASSWORD_AUTH',
    "'http://voice.example.com/' is not an https URL",
  ]);
  expect(await check('cognito-public-code-client', type, { allowedOauthFlowsUserPoolClient: true })).toEqual([
    'OAuth is on without the code grant',
  ]);
});
