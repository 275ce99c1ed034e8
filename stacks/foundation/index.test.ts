// foundation under Pulumi mocks: outputs, bucket and repository hardening, exact IAM policies.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { foundationOutputs } from '../shared/outputs.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { account, region, runProgram, type ProgramRun } from '../testing/mocks.ts';
import { PRIVATE_BUCKET, privateSettingsOf } from '../testing/private-bucket.ts';

let run: ProgramRun;
const policyOf = (roleName: string) =>
  JSON.parse(run.find('aws:iam/rolePolicy:RolePolicy', `${roleName}-policy`).state.policy as string);
const statement = (doc: any, sid: string) => doc.Statement.find((s: any) => s.Sid === sid);

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-foundation',
    config: {
      'kokoro-foundation:bedrockModelIds': JSON.stringify([
        'us.anthropic.claude-haiku-4-5-20251001-v1:0',
        'amazon.nova-micro-v1:0',
      ]),
      'kokoro-foundation:accessLogBucket': 'audit-logs',
    },
  });
});

test('exports exactly the contract outputs', () => {
  expect(Object.keys(run.outputs).sort()).toEqual([...foundationOutputs].sort());
  expect(run.outputs).toMatchObject({
    region,
    weightsBucketName: 'kokoro-dev-weights-0a1b2c3',
    weightsBucketArn: 'arn:aws:s3:::kokoro-dev-weights-0a1b2c3',
    weightsKeyArn: `arn:aws:kms:${region}:${account}:key/kokoro-dev-weights-key-key-id`,
    weightsPrefix: 'models/',
    sessionsPrefix: 'sessions/',
    containerRepositoryUrl: `${account}.dkr.ecr.${region}.amazonaws.com/kokoro-dev-tts-container-0a1b2c3`,
    runtimeRepositoryUrl: `${account}.dkr.ecr.${region}.amazonaws.com/kokoro-dev-agent-runtime-0a1b2c3`,
    sagemakerRoleArn: `arn:aws:iam::${account}:role/kokoro-dev-sagemaker-role-0a1b2c3`,
    agentRuntimeRoleArn: `arn:aws:iam::${account}:role/kokoro-dev-agentcore-role-0a1b2c3`,
    endpointName: 'kokoro-dev-tts',
  });
});

describe('weights bucket', () => {
  test('is private, owner-enforced, versioned and KMS-encrypted with a rotating key', () => {
    expect(privateSettingsOf(run)).toEqual(PRIVATE_BUCKET);
    expect(run.find('aws:s3/bucketVersioning:BucketVersioning').inputs.versioningConfiguration).toEqual({
      status: 'Enabled',
    });
    const rule = run.find('aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration')
      .inputs.rules[0];
    expect(rule.applyServerSideEncryptionByDefault).toEqual({
      sseAlgorithm: 'aws:kms',
      kmsMasterKeyId: run.outputs.weightsKeyArn,
    });
    expect(run.find('aws:kms/key:Key').inputs).toMatchObject({ enableKeyRotation: true, deletionWindowInDays: 30 });
    expect(run.find('aws:s3/bucket:Bucket').inputs.forceDestroy).toBe(false);
  });

  test('denies requests without TLS and aborts incomplete uploads', () => {
    const policy = JSON.parse(run.find('aws:s3/bucketPolicy:BucketPolicy').inputs.policy);
    expect(policy.Statement).toEqual([
      {
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:*',
        Resource: [run.outputs.weightsBucketArn, `${run.outputs.weightsBucketArn}/*`],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ]);
    const rules = run.find('aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration').inputs.rules;
    expect(rules[0]).toMatchObject({ status: 'Enabled', abortIncompleteMultipartUpload: { daysAfterInitiation: 1 } });
  });

  test('logs access to the configured bucket', () => {
    expect(run.find('aws:s3/bucketLogging:BucketLogging').inputs).toMatchObject({
      targetBucket: 'audit-logs',
      targetPrefix: 'kokoro-dev-weights-0a1b2c3/',
    });
  });
});

test('repositories scan on push, keep immutable tags, encrypt, and keep the last 10 images', () => {
  const repos = run.all('aws:ecr/repository:Repository');
  expect(repos).toHaveLength(2);
  for (const repo of repos) {
    expect(repo.inputs).toMatchObject({
      imageScanningConfiguration: { scanOnPush: true },
      imageTagMutability: 'IMMUTABLE',
      encryptionConfigurations: [{ encryptionType: 'KMS' }],
    });
  }
  for (const policy of run.all('aws:ecr/lifecyclePolicy:LifecyclePolicy')) {
    expect(JSON.parse(policy.inputs.policy).rules[0].selection).toEqual({
      tagStatus: 'any',
      countType: 'imageCountMoreThan',
      countNumber: 10,
    });
  }
});

describe('SageMaker execution role', () => {
  test('is assumable only by SageMaker for this account', () => {
    const trust = JSON.parse(run.find('aws:iam/role:Role', 'kokoro-dev-sagemaker-role').inputs.assumeRolePolicy);
    expect(trust.Statement[0]).toMatchObject({
      Principal: { Service: 'sagemaker.amazonaws.com' },
      Action: ['sts:AssumeRole'],
      Condition: { StringEquals: { 'aws:SourceAccount': account } },
    });
  });

  test('reads only the weights prefix, pulls only its image, logs only to its endpoint group', () => {
    const doc = policyOf('kokoro-dev-sagemaker');
    const bucketArn = run.outputs.weightsBucketArn as string;
    expect(statement(doc, 'ReadWeights')).toMatchObject({
      Action: ['s3:GetObject'],
      Resource: `${bucketArn}/models/*`,
    });
    expect(statement(doc, 'ListWeights')).toMatchObject({
      Resource: bucketArn,
      Condition: { StringLike: { 's3:prefix': 'models/*' } },
    });
    expect(statement(doc, 'DecryptWeights')).toMatchObject({
      Action: ['kms:Decrypt'],
      Resource: run.outputs.weightsKeyArn,
    });
    expect(statement(doc, 'PullImage').Resource).toBe(
      `arn:aws:ecr:${region}:${account}:repository/kokoro-dev-tts-container-0a1b2c3`,
    );
    expect(statement(doc, 'EndpointLogGroup')).toMatchObject({
      Action: ['logs:CreateLogGroup', 'logs:DescribeLogStreams'],
      Resource: `arn:aws:logs:${region}:${account}:log-group:/aws/sagemaker/Endpoints/kokoro-dev-tts`,
    });
    expect(statement(doc, 'WriteLogs')).toMatchObject({
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: `arn:aws:logs:${region}:${account}:log-group:/aws/sagemaker/Endpoints/kokoro-dev-tts:log-stream:*`,
    });
    expect(run.find('aws:cloudwatch/logGroup:LogGroup').inputs).toMatchObject({
      name: '/aws/sagemaker/Endpoints/kokoro-dev-tts',
      retentionInDays: 30,
    });
  });
});

describe('AgentCore runtime role', () => {
  test('trusts bedrock-agentcore from this account and region only', () => {
    const trust = JSON.parse(run.find('aws:iam/role:Role', 'kokoro-dev-agentcore-role').inputs.assumeRolePolicy);
    expect(trust.Statement[0].Condition).toEqual({
      StringEquals: { 'aws:SourceAccount': account },
      ArnLike: { 'aws:SourceArn': `arn:aws:bedrock-agentcore:${region}:${account}:*` },
    });
  });

  test('invokes only this endpoint and only the configured models', () => {
    const doc = policyOf('kokoro-dev-agentcore');
    expect(statement(doc, 'InvokeEndpoint')).toEqual({
      Sid: 'InvokeEndpoint',
      Effect: 'Allow',
      Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'],
      Resource: `arn:aws:sagemaker:${region}:${account}:endpoint/kokoro-dev-tts`,
    });
    expect(statement(doc, 'InvokeModels').Resource).toEqual([
      `arn:aws:bedrock:${region}:${account}:inference-profile/us.anthropic.claude-haiku-4-5-20251001-v1:0`,
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0',
      `arn:aws:bedrock:${region}::foundation-model/amazon.nova-micro-v1:0`,
    ]);
    expect(statement(doc, 'PullImage').Resource).toBe(
      `arn:aws:ecr:${region}:${account}:repository/kokoro-dev-agent-runtime-0a1b2c3`,
    );
  });

  test('sttProvider transcribe (the default): exactly Transcribe streaming over HTTP/2, and the output says so', () => {
    const doc = policyOf('kokoro-dev-agentcore');
    const transcribe = doc.Statement.filter((s: any) => s.Action.some((a: string) => a.startsWith('transcribe:')));
    expect(transcribe).toEqual([
      { Sid: 'TranscribeStreaming', Effect: 'Allow', Action: ['transcribe:StartStreamTranscription'], Resource: '*' },
    ]);
    expect(run.outputs.sttProvider).toBe('transcribe');
  });

  test('reads and writes persisted conversations only under the sessions prefix, through S3 with the bucket key', () => {
    const doc = policyOf('kokoro-dev-agentcore');
    expect(statement(doc, 'SessionObjects')).toMatchObject({
      Action: ['s3:GetObject', 's3:PutObject'],
      Resource: 'arn:aws:s3:::kokoro-dev-weights-0a1b2c3/sessions/*',
    });
    expect(statement(doc, 'ListSessions')).toMatchObject({
      Resource: 'arn:aws:s3:::kokoro-dev-weights-0a1b2c3',
      Condition: { StringLike: { 's3:prefix': 'sessions/*' } },
    });
    expect(statement(doc, 'SessionKey')).toMatchObject({
      Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
      Resource: `arn:aws:kms:${region}:${account}:key/kokoro-dev-weights-key-key-id`,
      Condition: { StringEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } },
    });
  });

  test('no statement of either role has a * action', () => {
    for (const role of ['kokoro-dev-sagemaker', 'kokoro-dev-agentcore']) {
      for (const s of policyOf(role).Statement) expect(s.Action.some((a: string) => a.includes('*'))).toBe(false);
    }
  });
});

test('both roles are ServiceRoles that keep the URNs of the roles foundation built before them', () => {
  const urn = (chain: string, name: string) => `urn:pulumi:dev::kokoro-foundation::${chain}::${name}`;
  for (const name of ['kokoro-dev-sagemaker', 'kokoro-dev-agentcore']) {
    const component = urn('kokoro:shared:ServiceRole', name);
    const role = run.find('aws:iam/role:Role', `${name}-role`);
    const policy = run.find('aws:iam/rolePolicy:RolePolicy', `${name}-policy`);
    expect([role.parent, policy.parent]).toEqual([component, component]);
    expect(role.aliases).toContain(urn('kokoro:foundation:ServiceRole$aws:iam/role:Role', name));
    expect(policy.aliases).toContain(
      urn('kokoro:foundation:ServiceRole$aws:iam/rolePolicy:RolePolicy', `${name}-policy`),
    );
    expect(run.find('kokoro:shared:ServiceRole', name).aliases).toEqual([
      JSON.stringify({ name: '', type: 'kokoro:foundation:ServiceRole', parent: '' }),
    ]);
  }
});

test('every taggable resource carries the default tags', () => {
  const tagged = run.resources.filter((r) => r.type.startsWith('aws:') && 'tags' in r.inputs);
  expect(tagged.map((r) => r.type).sort()).toEqual([
    'aws:cloudwatch/logGroup:LogGroup',
    'aws:ecr/repository:Repository',
    'aws:ecr/repository:Repository',
    'aws:iam/role:Role',
    'aws:iam/role:Role',
    'aws:kms/key:Key',
    'aws:s3/bucket:Bucket',
  ]);
  for (const r of tagged)
    expect(r.inputs.tags).toMatchObject({
      app: 'kokoro',
      'pulumi-project': 'kokoro-foundation',
      'pulumi-stack': 'dev',
      layer: 'foundation',
    });
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('every IAM document matches the service authorization reference (actions, condition keys, ARNs)', async () => {
  const documents = policyDocumentsOf(run.resources);
  expect(documents.map((d) => `${d.resource} ${d.property}`).sort()).toEqual([
    'aws:iam/role:Role::kokoro-dev-agentcore-role assumeRolePolicy',
    'aws:iam/role:Role::kokoro-dev-sagemaker-role assumeRolePolicy',
    'aws:iam/rolePolicy:RolePolicy::kokoro-dev-agentcore-policy policy',
    'aws:iam/rolePolicy:RolePolicy::kokoro-dev-sagemaker-policy policy',
    'aws:s3/bucketPolicy:BucketPolicy::kokoro-dev-weights-policy policy',
  ]);
  expect(await referenceProblems(documents)).toEqual([]);
});
