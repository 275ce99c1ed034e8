// The IAM document helpers on their own: ARN builders per partition, the one trust policy builder
// and its per-service conditions, and the scope read from the provider.
import { describe, expect, test } from '@jest/globals';
import { mockEngine, resolve } from '../testing/mocks.ts';
import {
  arn,
  awsScope,
  bucketArn,
  logGroupArn,
  logStreamArn,
  policyDocument,
  serviceTrustPolicy,
  type TrustedService,
} from './iam.ts';

const scope = { partition: 'aws', region: 'us-east-1', account: '123456789012' };
const china = { partition: 'aws-cn', region: 'cn-north-1', account: '210987654321' };

describe('ARN builders', () => {
  test('write the partition, region and account of the scope', () => {
    expect(arn(china, 'sagemaker', 'endpoint/tts')).toBe('arn:aws-cn:sagemaker:cn-north-1:210987654321:endpoint/tts');
    expect(arn(scope, 'bedrock', 'foundation-model/m', { region: '*', account: '' })).toBe(
      'arn:aws:bedrock:*::foundation-model/m',
    );
    expect(bucketArn(china, 'weights')).toBe('arn:aws-cn:s3:::weights');
  });

  test('log groups and their streams are the two resource types CloudWatch Logs actions take', () => {
    expect(logGroupArn(scope, '/aws/lambda/f')).toBe('arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/f');
    expect(logStreamArn(scope, '/aws/lambda/f')).toBe(
      'arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/f:log-stream:*',
    );
  });

  test('refuse a service that is no IAM prefix and an empty resource', () => {
    expect(() => arn(scope, 'S3 bucket', 'b')).toThrow("service 'S3 bucket'");
    expect(() => arn(scope, 's3', '')).toThrow('empty resource for s3');
  });
});

test('policyDocument refuses a repeated Sid', () => {
  const statement = { Sid: 'A', Effect: 'Allow' as const, Action: ['s3:GetObject'], Resource: '*' };
  expect(policyDocument([statement]).Version).toBe('2012-10-17');
  expect(() => policyDocument([statement, statement])).toThrow("repeats Sid 'A'");
});

describe('serviceTrustPolicy', () => {
  test('lets only the service assume the role, for this account', () => {
    expect(serviceTrustPolicy('lambda.amazonaws.com', scope).Statement).toEqual([
      {
        Sid: 'AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'lambda.amazonaws.com' },
        Action: ['sts:AssumeRole'],
        Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
      },
    ]);
  });

  test('adds aws:SourceArn for the services that set it: Step Functions and AgentCore', () => {
    expect(serviceTrustPolicy('states.amazonaws.com', scope).Statement[0]).toMatchObject({
      Principal: { Service: 'states.amazonaws.com' },
      Condition: {
        StringEquals: { 'aws:SourceAccount': '123456789012' },
        ArnLike: { 'aws:SourceArn': 'arn:aws:states:us-east-1:123456789012:stateMachine:*' },
      },
    });
    expect(serviceTrustPolicy('bedrock-agentcore.amazonaws.com', china).Statement[0]!.Condition).toEqual({
      StringEquals: { 'aws:SourceAccount': '210987654321' },
      ArnLike: { 'aws:SourceArn': 'arn:aws-cn:bedrock-agentcore:cn-north-1:210987654321:*' },
    });
    expect(serviceTrustPolicy('sagemaker.amazonaws.com', scope).Statement[0]!.Condition!.ArnLike).toBeUndefined();
  });

  test('refuses a service it has no conditions for', () => {
    expect(() => serviceTrustPolicy('ec2.amazonaws.com' as TrustedService, scope)).toThrow(
      "no trust conditions known for service 'ec2.amazonaws.com'",
    );
  });
});

test("awsScope reads the provider's partition, region and account", async () => {
  await mockEngine({ project: 'test' });
  expect(await resolve(awsScope())).toEqual({ partition: 'aws', region: 'us-east-1', account: '123456789012' });
});
