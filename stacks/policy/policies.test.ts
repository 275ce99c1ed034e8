// Each CrossGuard policy called directly with passing and failing resources.
import { describe, expect, test } from '@jest/globals';
import type { StackValidationPolicy } from '@pulumi/policy';
import {
  checkResource as check,
  policyByName as byName,
  policyDocumentJson as doc,
  policyResources,
  policyViolations,
  stackArgs,
} from '../testing/policy-check.ts';
import { policies } from './policies.ts';

test('the pack has the fifteen policies, each mandatory (web-policies.test.ts tests the last five)', () => {
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
      'cloudwatch-log-group-retention',
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

test('log groups expire their events, after a retention CloudWatch Logs accepts', async () => {
  const type = 'aws:cloudwatch/logGroup:LogGroup';
  expect(await check('cloudwatch-log-group-retention', type, { name: '/g', retentionInDays: 30 })).toEqual([]);
  expect(await check('cloudwatch-log-group-retention', type, { name: '/g' })).toEqual([
    "log group '/g' keeps its events forever: set retentionInDays",
  ]);
  expect(await check('cloudwatch-log-group-retention', type, { name: '/g', retentionInDays: 10 })).toEqual([
    "log group '/g' keeps its events 10 days, not a retention CloudWatch Logs accepts",
  ]);
  expect(await check('cloudwatch-log-group-retention', 'aws:cloudwatch/logStream:LogStream', {})).toEqual([]);
});

test('CloudWatch Logs resource policies are IAM documents too (no wildcard actions)', async () => {
  expect(
    await check('iam-no-wildcard-actions', 'aws:cloudwatch/logResourcePolicy:LogResourcePolicy', {
      policyDocument: doc({
        Sid: 'Any',
        Effect: 'Allow',
        Principal: { Service: 'xray.amazonaws.com' },
        Action: 'logs:*',
        Resource: '*',
      }),
    }),
  ).toEqual(['statement \'Any\' allows wildcard actions ("logs:*")']);
});

test('policyViolations reports failing resources (the helper the stack tests rely on)', async () => {
  const violations = await policyViolations([
    { type: 'aws:ecr/repository:Repository', name: 'repo', inputs: {}, state: {} },
  ]);
  expect(violations.map((v) => v.policy).sort()).toEqual(['ecr-scan-on-push', 'resources-tagged']);
});
