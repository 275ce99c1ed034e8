// The page bucket's policy on its own: it names one distribution, and refuses anything else.
import { expect, test } from '@jest/globals';
import { denyInsecureTransport } from '../shared/iam.ts';
import { pageBucketPolicy } from './page-bucket.ts';

test('grants GetObject to CloudFront for one distribution only, and refuses what is not a distribution', () => {
  const doc = pageBucketPolicy('arn:aws:s3:::page', 'arn:aws:cloudfront::111122223333:distribution/E1ABC');
  expect(doc.Statement.map((s) => s.Sid)).toEqual(['DenyInsecureTransport', 'ReadThroughTheDistribution']);
  expect(doc.Statement[0]).toEqual(denyInsecureTransport('arn:aws:s3:::page'));
  expect(doc.Statement[1]).toMatchObject({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' } });
  expect(doc.Statement[1]).toMatchObject({ Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::page/*' });
  expect(doc.Statement[1]!.Condition).toEqual({
    StringEquals: { 'AWS:SourceArn': 'arn:aws:cloudfront::111122223333:distribution/E1ABC' },
  });
  for (const arn of ['*', 'arn:aws:cloudfront::111122223333:distribution/*', 'arn:aws:s3:::other']) {
    expect(() => pageBucketPolicy('arn:aws:s3:::page', arn)).toThrow(`'${arn}' is not a CloudFront distribution ARN`);
  }
});
