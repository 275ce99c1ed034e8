import { describe, expect, test } from '@jest/globals';
import type { PolicyDocument } from '../shared/iam.ts';
import { functionPolicy, stateMachinePolicy, type FunctionPolicyArgs } from './policies.ts';

const context = { partition: 'aws', region: 'us-east-1', account: '123456789012' };
const args: FunctionPolicyArgs = {
  ...context,
  logGroupArn: 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/f',
  bucketArn: 'arn:aws:s3:::weights',
  keyArn: 'arn:aws:kms:us-east-1:123456789012:key/k',
  prefix: 'models/',
  secretArn: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-AbCdEf',
};
const actions = (doc: PolicyDocument) => doc.Statement.flatMap((s) => [s['Action']].flat());
const sid = (doc: PolicyDocument, name: string) => doc.Statement.find((s) => s['Sid'] === name);

describe('function policies', () => {
  test('resolve only logs, traces and reads the token secret', () => {
    const doc = functionPolicy('resolve', args);
    expect(actions(doc).sort()).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'secretsmanager:GetSecretValue',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    expect(sid(doc, 'ReadHubToken')).toMatchObject({ Resource: args.secretArn });
    expect(actions(functionPolicy('resolve', { ...args, secretArn: undefined }))).not.toContain(
      'secretsmanager:GetSecretValue',
    );
  });

  test('copy writes only objects under the prefix, through the weights key', () => {
    const doc = functionPolicy('copy', args);
    expect(sid(doc, 'WriteModelPrefix')).toEqual({
      Sid: 'WriteModelPrefix',
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
      Resource: 'arn:aws:s3:::weights/models/*',
    });
    expect(sid(doc, 'UseWeightsKeyThroughS3')).toMatchObject({
      Resource: args.keyArn,
      Condition: { StringEquals: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } },
    });
    expect(sid(doc, 'TellMissingObjects')).toEqual({
      Sid: 'TellMissingObjects',
      Effect: 'Allow',
      Action: 's3:ListBucket',
      Resource: 'arn:aws:s3:::weights',
      Condition: { StringLike: { 's3:prefix': 'models/*' } },
    });
    expect(sid(functionPolicy('manifest', args), 'TellMissingObjects')).toMatchObject({
      Condition: { StringLike: { 's3:prefix': 'models/*' } },
    });
    expect(actions(doc)).not.toContain('s3:DeleteObject');
    expect(doc.Statement.every((s) => s['Resource'] !== 'arn:aws:s3:::weights/*')).toBe(true);
  });

  test('manifest reads and writes the prefix but never sees the token', () => {
    const doc = functionPolicy('manifest', args);
    expect(sid(doc, 'WriteModelPrefix')).toMatchObject({ Action: ['s3:GetObject', 's3:PutObject'] });
    expect(actions(doc)).not.toContain('secretsmanager:GetSecretValue');
  });

  test('a prefix not ending in / is refused', () => {
    expect(() => functionPolicy('copy', { ...args, prefix: 'models' })).toThrow(/end in '\/'/);
  });
});

test('the state machine invokes exactly its functions and their versions', () => {
  const doc = stateMachinePolicy(['arn:aws:lambda:us-east-1:123456789012:function:a']);
  expect(sid(doc, 'InvokeSyncFunctions')).toMatchObject({
    Resource: [
      'arn:aws:lambda:us-east-1:123456789012:function:a',
      'arn:aws:lambda:us-east-1:123456789012:function:a:*',
    ],
  });
});
