// The lexicon settings and grant as plain functions: what config `lexicon` and `lexiconRevision`
// accept and refuse (each refusal naming its key), the policy document, and the role name.
import { describe, expect, test } from '@jest/globals';
import { referenceProblems } from '../testing/iam-reference.ts';
import { lexiconPolicy, lexiconTarget, parseLexiconRevision, parseLexiconSetting, roleNameOf } from './lexicon.ts';

describe('config lexicon', () => {
  test('s3://bucket/key names that object; a bare key is one in the foundation bucket', () => {
    expect(parseLexiconSetting('s3://team.assets/tts/en v2.json')).toEqual({
      bucket: 'team.assets',
      key: 'tts/en v2.json',
    });
    expect(parseLexiconSetting('lexicons/en-us.json')).toEqual({ bucket: null, key: 'lexicons/en-us.json' });
  });

  test.each([
    ['s3://weights-bucket/', 'must name one object (a key not ending in /)'],
    ['s3://weights-bucket/lexicons/', 'must name one object (a key not ending in /)'],
    ['', 'must name one object'],
    ['s3://Weights/x.json', "names 'Weights', which is not an S3 bucket name"],
    ['s3://ab/x.json', "names 'ab', which is not an S3 bucket name"],
    ['s3://a..b/x.json', "names 'a..b'"],
    ['s3://192.168.1.1/x.json', "names '192.168.1.1'"],
    ['s3:/weights-bucket/x.json', "must be s3://bucket/key or a key in the foundation's weights bucket"],
    ['s3://weights-bucket', "must be s3://bucket/key or a key in the foundation's weights bucket"],
    ['https://example.com/x.json', "must be s3://bucket/key or a key in the foundation's weights bucket"],
    ['file:///opt/lexicon.json', "must be s3://bucket/key or a key in the foundation's weights bucket"],
    ['lexicons/*', "must not contain '*', '?' or '${'"],
    ['s3://b-1/lexicon?.json', "must not contain '*', '?' or '${'"],
    ['lexicons/${aws:username}.json', "must not contain '*', '?' or '${'"],
    ['/lexicons/en.json', "must not start its key with '/'"],
    ['s3://weights-bucket//en.json', "must not start its key with '/'"],
    ['lexicons/en\n.json', 'has a control character in its key'],
    [`${'k'.repeat(1025)}`, 'has a key over 1024 bytes'],
  ])('%j is refused naming the key', (value, why) => {
    expect(() => parseLexiconSetting(value)).toThrow(`config 'lexicon' ${why}`);
  });
});

test("the foundation's bucket, named or implied, is the one its key encrypts", () => {
  expect(lexiconTarget(parseLexiconSetting('lexicons/en.json'), 'weights')).toEqual({
    bucket: 'weights',
    ownBucket: true,
  });
  expect(lexiconTarget(parseLexiconSetting('s3://weights/lexicons/en.json'), 'weights')).toEqual({
    bucket: 'weights',
    ownBucket: true,
  });
  expect(lexiconTarget(parseLexiconSetting('s3://team/en.json'), 'weights')).toEqual({
    bucket: 'team',
    ownBucket: false,
  });
});

describe('config lexiconRevision', () => {
  test('a short label, only beside a lexicon', () => {
    expect(parseLexiconRevision(undefined, undefined)).toBeUndefined();
    expect(parseLexiconRevision('2026-12-06.1', 'lexicons/en.json')).toBe('2026-12-06.1');
    expect(() => parseLexiconRevision('2', undefined)).toThrow(
      "config 'lexiconRevision' is set but 'lexicon' is not: set both or neither",
    );
    expect(() => parseLexiconRevision('two words', 'x.json')).toThrow(
      "config 'lexiconRevision' must be 1-64 of A-Z a-z 0-9 . _ : -, got 'two words'",
    );
  });
});

test('the grant reads exactly the object, and decrypts through S3 only with the foundation key', async () => {
  const scope = { partition: 'aws', region: 'eu-west-1', account: '123456789012' };
  const keyArn = 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const own = lexiconPolicy({ ...scope, bucket: 'weights', key: 'lexicons/en.json', keyArn });
  expect(own.Statement).toEqual([
    {
      Sid: 'ReadLexicon',
      Effect: 'Allow',
      Action: ['s3:GetObject'],
      Resource: 'arn:aws:s3:::weights/lexicons/en.json',
    },
    {
      Sid: 'DecryptLexicon',
      Effect: 'Allow',
      Action: ['kms:Decrypt'],
      Resource: keyArn,
      Condition: { StringEquals: { 'kms:ViaService': 's3.eu-west-1.amazonaws.com' } },
    },
  ]);
  const china = lexiconPolicy({ ...scope, partition: 'aws-cn', bucket: 'team', key: 'en.json' });
  expect(china.Statement).toEqual([
    { Sid: 'ReadLexicon', Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws-cn:s3:::team/en.json' },
  ]);
  const documents = [own, china].map((d, i) => ({ resource: `doc${i}`, property: 'policy', statements: d.Statement }));
  expect(await referenceProblems(documents)).toEqual([]);
});

test('the role name is the last part of the role ARN (after any path)', () => {
  expect(roleNameOf('arn:aws:iam::123456789012:role/kokoro-dev-sagemaker-role-0a1b2c3')).toBe(
    'kokoro-dev-sagemaker-role-0a1b2c3',
  );
  expect(roleNameOf('arn:aws:iam::123456789012:role/service/team/tts')).toBe('tts');
  expect(() => roleNameOf('sagemakerRoleArn-value')).toThrow(
    "foundation output 'sagemakerRoleArn' is not an IAM role ARN: 'sagemakerRoleArn-value'",
  );
});
