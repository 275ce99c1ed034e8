// The policy-document builders on their own: argument checks and the `*` resources they allow.
import { describe, expect, test } from '@jest/globals';
import { keepLastImagesPolicy } from './image-repository.ts';
import { agentRuntimePolicy, bedrockModelArns, sagemakerPolicy } from './policies.ts';

const scope = { partition: 'aws', region: 'eu-west-1', account: '111122223333' };

describe('bedrockModelArns', () => {
  test('maps plain model ids to one regional foundation-model ARN', () => {
    expect(bedrockModelArns(['amazon.nova-lite-v1:0'], scope)).toEqual([
      'arn:aws:bedrock:eu-west-1::foundation-model/amazon.nova-lite-v1:0',
    ]);
  });

  test('maps inference profiles to the profile and the model in any region', () => {
    expect(bedrockModelArns(['global.anthropic.claude-sonnet-4-5-20250929-v1:0'], scope)).toEqual([
      'arn:aws:bedrock:eu-west-1:111122223333:inference-profile/global.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
  });

  test('rejects an empty list and odd characters', () => {
    expect(() => bedrockModelArns([], scope)).toThrow(/at least one/);
    expect(() => bedrockModelArns(['*'], scope)).toThrow(/unexpected characters/);
  });
});

test('sagemakerPolicy insists on a prefix ending in /', () => {
  expect(() =>
    sagemakerPolicy({
      ...scope,
      bucketArn: 'arn:aws:s3:::b',
      weightsPrefix: 'models',
      keyArn: 'k',
      repositoryArn: 'r',
      endpointName: 'e',
    }),
  ).toThrow("weightsPrefix 'models' must end in '/'");
});

test('only actions without resource-level permissions get a * resource', () => {
  const docs = [
    sagemakerPolicy({
      ...scope,
      bucketArn: 'arn:aws:s3:::b',
      weightsPrefix: 'm/',
      keyArn: 'k',
      repositoryArn: 'r',
      endpointName: 'e',
    }),
    agentRuntimePolicy({
      ...scope,
      repositoryArn: 'r',
      endpointName: 'e',
      bedrockModelIds: ['amazon.nova-lite-v1:0'],
      sttProvider: 'transcribe',
    }),
  ];
  const starred = docs.flatMap((d) => d.Statement.filter((s) => s.Resource === '*').flatMap((s) => s.Action)).sort();
  expect(starred).toEqual([
    'cloudwatch:PutMetricData',
    'cloudwatch:PutMetricData',
    'ecr:GetAuthorizationToken',
    'ecr:GetAuthorizationToken',
    'logs:DescribeLogGroups',
    'transcribe:StartStreamTranscription',
    'xray:GetSamplingRules',
    'xray:GetSamplingTargets',
    'xray:PutSpans',
    'xray:PutTelemetryRecords',
    'xray:PutTraceSegments',
  ]);
});

test('keepLastImagesPolicy rejects a count below one', () => {
  expect(() => keepLastImagesPolicy(0)).toThrow('keepImages must be a positive integer, got 0');
});

describe('agentRuntimePolicy with persisted sessions', () => {
  const base = { ...scope, repositoryArn: 'r', endpointName: 'e', bedrockModelIds: ['amazon.nova-lite-v1:0'] };
  const sessions = {
    bucketArn: 'arn:aws:s3:::foundation',
    prefix: 'sessions/',
    keyArn: 'arn:aws:kms:eu-west-1:111122223333:key/k',
  };

  test('without sessions: no S3 or KMS statement at all', () => {
    const actions = agentRuntimePolicy(base).Statement.flatMap((s) => s.Action);
    expect(actions.filter((a) => a.startsWith('s3:') || a.startsWith('kms:'))).toEqual([]);
  });

  test('with sessions: objects under the prefix only, listing only the prefix, the key only through S3', () => {
    const doc = agentRuntimePolicy({ ...base, sessions });
    expect(doc.Statement.slice(-3)).toEqual([
      {
        Sid: 'SessionObjects',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject'],
        Resource: 'arn:aws:s3:::foundation/sessions/*',
      },
      {
        Sid: 'ListSessions',
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: 'arn:aws:s3:::foundation',
        Condition: { StringLike: { 's3:prefix': 'sessions/*' } },
      },
      {
        Sid: 'SessionKey',
        Effect: 'Allow',
        Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
        Resource: 'arn:aws:kms:eu-west-1:111122223333:key/k',
        Condition: { StringEquals: { 'kms:ViaService': 's3.eu-west-1.amazonaws.com' } },
      },
    ]);
    expect(doc.Statement.flatMap((s) => s.Action)).not.toContain('s3:DeleteObject');
  });

  test('insists on a prefix ending in /', () => {
    expect(() => agentRuntimePolicy({ ...base, sessions: { ...sessions, prefix: 'sessions' } })).toThrow(
      "sessions prefix 'sessions' must end in '/'",
    );
  });
});

describe('agentRuntimePolicy and speech-to-text', () => {
  const base = { ...scope, repositoryArn: 'r', endpointName: 'e', bedrockModelIds: ['amazon.nova-lite-v1:0'] };
  const transcribeActions = (sttProvider?: 'transcribe' | 'openai' | 'none') =>
    agentRuntimePolicy({ ...base, ...(sttProvider ? { sttProvider } : {}) })
      .Statement.flatMap((s) => s.Action)
      .filter((a) => a.startsWith('transcribe:'));

  test('transcribe: exactly the HTTP/2 streaming action the agent calls, not the WebSocket one', () => {
    expect(transcribeActions('transcribe')).toEqual(['transcribe:StartStreamTranscription']);
  });

  test('openai, none or unset: no Transcribe action at all', () => {
    expect([transcribeActions('openai'), transcribeActions('none'), transcribeActions()]).toEqual([[], [], []]);
  });
});
