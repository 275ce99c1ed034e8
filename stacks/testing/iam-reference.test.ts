// The service-authorization-reference check on its own: it passes correct statements and names
// each kind of mistake it exists to catch (the stack tests then run it over every document).
import { describe, expect, test } from '@jest/globals';
import { arnFits, policyDocumentsOf, referenceProblems, statementProblems } from './iam-reference.ts';

const group = 'arn:aws:logs:us-east-1:123456789012:log-group:/aws/sagemaker/Endpoints/tts';
const streams = 'arn:aws:logs:us-east-1:123456789012:log-group:${LogGroupName}:log-stream:${LogStreamName}';
const groups = 'arn:aws:logs:us-east-1:123456789012:log-group:${LogGroupName}';
const allow = (Action: string | string[], Resource?: string | string[], Condition?: Record<string, any>) => ({
  Sid: 'S',
  Effect: 'Allow',
  Action,
  ...(Resource === undefined ? {} : { Resource }),
  ...(Condition === undefined ? {} : { Condition }),
});

describe('arnFits', () => {
  test('matches literal ARNs and wildcards against the format, variables by their naming rules', () => {
    expect(arnFits(`${group}:log-stream:*`, streams)).toBe(true);
    expect(arnFits(`${group}:*`, streams)).toBe(true); // `*` crosses ':'
    expect(arnFits(group, streams)).toBe(false); // a bare group is no stream
    expect(arnFits(`${group}:log-stream:*`, groups)).toBe(false); // group names hold no ':'
    expect(arnFits('arn:aws:s3:::weights', 'arn:${Partition}:s3:::${BucketName}')).toBe(true);
    expect(arnFits('arn:aws:s3:::weights/models/*', 'arn:${Partition}:s3:::${BucketName}')).toBe(false);
    expect(arnFits('arn:aws:s3:::weights/models/*', 'arn:${Partition}:s3:::${BucketName}/${ObjectName}')).toBe(true);
    expect(arnFits('*', 'arn:${Partition}:s3:::${BucketName}')).toBe(true);
    expect(
      arnFits(
        'arn:aws:bedrock:*::foundation-model/a.b-v1:0',
        'arn:${Partition}:bedrock:${Region}::foundation-model/${ResourceId}',
      ),
    ).toBe(true);
    expect(
      arnFits(
        'arn:aws:bedrock:us-east-1:1:foundation-model/m',
        'arn:${Partition}:bedrock:${Region}::foundation-model/${ResourceId}',
      ),
    ).toBe(false); // foundation models carry no account
    expect(arnFits('arn:aws:s3:::b?', 'arn:${Partition}:s3:::${BucketName}')).toBe(true);
  });
});

describe('statementProblems', () => {
  test('passes statements the reference allows', async () => {
    expect(
      await statementProblems(allow(['logs:CreateLogStream', 'logs:PutLogEvents'], `${group}:log-stream:*`)),
    ).toEqual([]);
    expect(
      await statementProblems(
        allow('s3:ListBucket', 'arn:aws:s3:::weights', { StringLike: { 's3:prefix': 'models/*' } }),
      ),
    ).toEqual([]);
    expect(await statementProblems(allow('logs:DescribeLogGroups', '*'))).toEqual([]);
    expect(
      await statementProblems({
        Effect: 'Deny',
        Action: 's3:*',
        Resource: ['arn:aws:s3:::b', 'arn:aws:s3:::b/*'],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    ).toEqual([]);
    expect(
      await statementProblems(
        allow('sts:AssumeRole', undefined, { StringEquals: { 'aws:SourceAccount': '1', 'aws:ResourceTag/app': 'k' } }),
      ),
    ).toEqual([]);
  });

  test('names an action the reference does not have, and a wildcard that matches none', async () => {
    expect(
      await statementProblems(
        allow('sagemaker:InvokeEndpointWithBidirectionalStream', 'arn:aws:sagemaker:r:1:endpoint/e'),
      ),
    ).toEqual(["S: 'sagemaker:InvokeEndpointWithBidirectionalStream' is not an action in the reference"]);
    expect(await statementProblems(allow('s3:Frobnicate*', '*'))).toEqual([
      "S: 's3:Frobnicate*' matches no action of s3",
    ]);
    expect(await statementProblems(allow('nosuchservice:Get', '*'))).toEqual([
      "S: 'nosuchservice:Get': no service 'nosuchservice' in the reference",
    ]);
  });

  test('names a resource that fits none of the action resource types', async () => {
    expect(await statementProblems(allow(['logs:CreateLogStream'], group))).toEqual([
      `S: '${group}' fits none of the resource types of 'logs:CreateLogStream' (arn:\${Partition}:logs:\${Region}:\${Account}:log-group:\${LogGroupName}:log-stream:\${LogStreamName})`,
    ]);
    expect(await statementProblems(allow('logs:DescribeLogGroups', `${group}:*`))).toEqual([
      `S: 'logs:DescribeLogGroups' has no resource-level permissions, so its Resource must be '*', not '${group}:*'`,
    ]);
    expect(await statementProblems(allow('s3:GetObject', 'arn:aws:s3:::weights'))).toHaveLength(1);
  });

  test('names a condition key that does not apply to the action', async () => {
    expect(
      await statementProblems(allow('s3:GetObject', 'arn:aws:s3:::b/*', { StringLike: { 's3:prefix': 'm/*' } })),
    ).toEqual(["S: condition key 's3:prefix' does not apply to 's3:GetObject' and is no global key"]);
    expect(
      await statementProblems(
        allow('kms:Decrypt', 'arn:aws:kms:r:1:key/k', { StringEquals: { 'aws:SourceAcount': '1' } }),
      ),
    ).toEqual(["S: condition key 'aws:SourceAcount' does not apply to 'kms:Decrypt' and is no global key"]);
  });
});

test('policyDocumentsOf finds documents in any input, as objects or JSON, and says where', async () => {
  const statement = allow('s3:GetObject', 'arn:aws:s3:::b');
  const found = policyDocumentsOf([
    { type: 't:a', name: 'a', inputs: { policy: JSON.stringify({ Version: '2012-10-17', Statement: [statement] }) } },
    { type: 't:b', name: 'b', inputs: { inlinePolicies: [{ policy: { Statement: statement } }], other: 'Statement' } },
    { type: 't:c', name: 'c', inputs: { definition: '{"States":{}}', rules: [{ a: 1 }] } },
  ]);
  expect(found.map((d) => [d.resource, d.property, d.statements.length])).toEqual([
    ['t:a::a', 'policy', 1],
    ['t:b::b', 'inlinePolicies.0.policy', 1],
  ]);
  expect(await referenceProblems(found)).toEqual([
    expect.stringMatching(/^t:a::a policy: S: 'arn:aws:s3:::b' fits none of the resource types of 's3:GetObject'/),
    expect.stringMatching(/^t:b::b inlinePolicies\.0\.policy: S: /),
  ]);
});
