// Each CrossGuard policy called directly with passing and failing resources.
import { describe, expect, test } from '@jest/globals';
import type { ResourceValidationPolicy, StackValidationPolicy } from '@pulumi/policy';
import { policyResources, policyViolations, resourceArgs, stackArgs } from '../testing/policy-check.ts';
import { policies } from './policies.ts';

const byName = (name: string) => {
  const policy = policies.find((p) => p.name === name);
  if (policy === undefined) throw new Error(`no policy ${name}`);
  return policy;
};

/** Violations one resource policy reports for one resource. */
async function check(
  name: string,
  type: string,
  props: Record<string, any>,
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const messages: string[] = [];
  const validate = (byName(name) as ResourceValidationPolicy).validateResource as (
    a: any,
    r: any,
  ) => Promise<void> | void;
  await validate(resourceArgs(type, props, config), (m: string) => messages.push(m));
  return messages;
}

const doc = (...Statement: object[]) => JSON.stringify({ Version: '2012-10-17', Statement });

test('the pack has the fourteen policies, each mandatory', () => {
  expect(policies.map((p) => [p.name, p.enforcementLevel])).toEqual(
    [
      's3-bucket-hardened',
      's3-public-access-blocked',
      's3-no-public-acl',
      's3-policy-tls-only',
      'iam-no-wildcard-actions',
      'iam-no-wildcard-resource-on-sensitive-actions',
      'ecr-scan-on-push',
      'sagemaker-approved-instance-types',
      'resources-tagged',
      'cloudfront-https-only',
      'cloudfront-s3-origin-access-control',
      's3-policy-cloudfront-scoped',
      's3-no-website',
      'cognito-public-code-client',
    ].map((n) => [n, 'mandatory']),
  );
});

describe('S3', () => {
  const tlsPolicy = doc({
    Sid: 'DenyInsecureTransport',
    Effect: 'Deny',
    Principal: '*',
    Action: 's3:*',
    Resource: ['arn:aws:s3:::b', 'arn:aws:s3:::b/*'],
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  });

  test('a bucket needs encryption, a public access block and a TLS-only policy attached', async () => {
    const validate = (byName('s3-bucket-hardened') as StackValidationPolicy).validateStack;
    const run = async (extra: { type: string; props: Record<string, any> }[]) => {
      const messages: string[] = [];
      const resources = policyResources([
        { type: 'aws:s3/bucket:Bucket', name: 'weights', props: {}, id: 'b' },
        ...extra.map((e, i) => ({ ...e, name: `x${i}` })),
      ]);
      await validate(stackArgs(resources), (m) => messages.push(m));
      return messages;
    };
    expect(await run([])).toEqual([
      "bucket 'weights' has no default encryption",
      "bucket 'weights' has no public access block",
      "bucket 'weights' has no TLS-only bucket policy",
    ]);
    expect(
      await run([
        {
          type: 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
          props: { bucket: 'b', rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms' } }] },
        },
        { type: 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock', props: { bucket: 'b' } },
        { type: 'aws:s3/bucketPolicy:BucketPolicy', props: { bucket: 'b', policy: tlsPolicy } },
      ]),
    ).toEqual([]);
  });

  test('public access blocks need all four settings', async () => {
    const type = 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock';
    expect(
      await check('s3-public-access-blocked', type, {
        blockPublicAcls: true,
        blockPublicPolicy: true,
        ignorePublicAcls: true,
        restrictPublicBuckets: true,
      }),
    ).toEqual([]);
    expect(
      await check('s3-public-access-blocked', type, {
        blockPublicAcls: true,
        blockPublicPolicy: false,
        ignorePublicAcls: true,
      }),
    ).toEqual(['public access block leaves blockPublicPolicy, restrictPublicBuckets off']);
  });

  test('public canned ACLs are refused', async () => {
    expect(await check('s3-no-public-acl', 'aws:s3/bucketAcl:BucketAcl', { acl: 'public-read' })).toEqual([
      "canned ACL 'public-read' makes the bucket public",
    ]);
    expect(await check('s3-no-public-acl', 'aws:s3/bucket:Bucket', { acl: 'private' })).toEqual([]);
  });

  test('bucket policies must deny plain HTTP and allow no anonymous principal', async () => {
    const type = 'aws:s3/bucketPolicy:BucketPolicy';
    expect(await check('s3-policy-tls-only', type, { policy: tlsPolicy })).toEqual([]);
    expect(
      await check('s3-policy-tls-only', type, {
        policy: doc({
          Sid: 'Open',
          Effect: 'Allow',
          Principal: '*',
          Action: 's3:GetObject',
          Resource: 'arn:aws:s3:::b/*',
        }),
      }),
    ).toEqual(['bucket policy does not deny aws:SecureTransport=false', "statement 'Open' allows any principal"]);
  });
});

describe('IAM', () => {
  test("no '*' or 'service:*' actions, no Allow with NotAction, inline role policies included", async () => {
    expect(
      await check('iam-no-wildcard-actions', 'aws:iam/rolePolicy:RolePolicy', {
        policy: doc({ Sid: 'All', Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::b' }),
      }),
    ).toEqual(['statement \'All\' allows wildcard actions ("s3:*")']);
    expect(
      await check('iam-no-wildcard-actions', 'aws:iam/role:Role', {
        inlinePolicies: [{ policy: doc({ Sid: 'Not', Effect: 'Allow', NotAction: 'iam:*', Resource: '*' }) }],
      }),
    ).toEqual(['statement \'Not\' allows wildcard actions ({"NotAction":"iam:*"})']);
    expect(
      await check('iam-no-wildcard-actions', 'aws:iam/policy:Policy', {
        policy: doc({ Effect: 'Deny', Action: '*', Resource: '*' }),
      }),
    ).toEqual([]);
  });

  test("'*' resources only for actions without resource-level permissions", async () => {
    const type = 'aws:iam/rolePolicy:RolePolicy';
    expect(
      await check('iam-no-wildcard-resource-on-sensitive-actions', type, {
        policy: doc({ Effect: 'Allow', Action: ['ecr:GetAuthorizationToken', 'xray:PutTraceSegments'], Resource: '*' }),
      }),
    ).toEqual([]);
    expect(
      await check('iam-no-wildcard-resource-on-sensitive-actions', type, {
        policy: doc({
          Effect: 'Allow',
          Action: ['sagemaker:InvokeEndpoint', 'cloudwatch:PutMetricData'],
          Resource: '*',
        }),
      }),
    ).toEqual(["'*' resource for actions that can be scoped: sagemaker:InvokeEndpoint"]);
  });
});

test('ECR repositories must scan on push', async () => {
  expect(
    await check('ecr-scan-on-push', 'aws:ecr/repository:Repository', {
      imageScanningConfiguration: { scanOnPush: true },
    }),
  ).toEqual([]);
  expect(await check('ecr-scan-on-push', 'aws:ecr/repository:Repository', {})).toEqual([
    'repository does not scan images on push',
  ]);
});

test('endpoint variants run on approved instance types (list configurable)', async () => {
  const type = 'aws:sagemaker/endpointConfiguration:EndpointConfiguration';
  const props = { productionVariants: [{ variantName: 'AllTraffic', instanceType: 'ml.p4d.24xlarge' }] };
  expect((await check('sagemaker-approved-instance-types', type, props))[0]).toMatch(
    /^variant 'AllTraffic' uses instance type 'ml.p4d.24xlarge', not one of ml.g5.xlarge/,
  );
  expect(
    await check('sagemaker-approved-instance-types', type, props, { approvedInstanceTypes: ['ml.p4d.24xlarge'] }),
  ).toEqual([]);
  expect(
    await check(
      'sagemaker-approved-instance-types',
      type,
      { productionVariants: [{ variantName: 'S' }] },
      { approvedInstanceTypes: ['ml.g5.xlarge'] },
    ),
  ).toEqual(["variant 'S' uses instance type 'none (serverless)', not one of ml.g5.xlarge"]);
});

test('taggable resources carry app and managed-by; untaggable ones are skipped', async () => {
  expect(await check('resources-tagged', 'aws:kms/key:Key', { tags: { app: 'kokoro' } })).toEqual([
    'missing tags: managed-by',
  ]);
  expect(
    await check('resources-tagged', 'aws:kms/key:Key', { tags: { app: 'kokoro', 'managed-by': 'pulumi' } }),
  ).toEqual([]);
  expect(await check('resources-tagged', 'aws:s3/bucketPolicy:BucketPolicy', {})).toEqual([]);
});

test('policyViolations reports failing resources (the helper the stack tests rely on)', async () => {
  const violations = await policyViolations([
    { type: 'aws:ecr/repository:Repository', name: 'repo', inputs: {}, state: {} },
  ]);
  expect(violations.map((v) => v.policy).sort()).toEqual(['ecr-scan-on-push', 'resources-tagged']);
});

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
