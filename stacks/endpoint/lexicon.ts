// The deployment's pronunciation lexicon (config `lexicon`): where the container reads it from
// (KOKORO_LEXICON, read once at start), and the one inline policy that lets the foundation's
// SageMaker role read exactly that object. The role lives in foundation; the policy is declared
// here, beside the key that names the object, so foundation needs no knowledge of the endpoint.
// What is documented and what is chosen: docs/design/pronunciation.md, The lexicon.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { policyDocument, type AwsScope, type PolicyDocument } from '../shared/iam.ts';

/** Where the lexicon lives: an explicit bucket, or (bucket null) the foundation's weights bucket. */
export interface LexiconLocation {
  bucket: string | null;
  key: string;
}

// S3's bucket naming rules (general purpose buckets): 3-63 of a-z 0-9 . -, starting and ending
// with a letter or digit, not shaped like an IP address.
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Parses config `lexicon`: `s3://bucket/key`, or a bare key in the foundation's weights bucket.
 * Throws, naming the key, on anything the container or IAM would take differently than meant: a
 * key with IAM wildcards (`*`, `?`) or policy variables (`${`) would widen the role's grant.
 */
export function parseLexiconSetting(value: string): LexiconLocation {
  const fail = (why: string): never => {
    throw new Error(`config 'lexicon' ${why}, got '${value}'`);
  };
  let bucket: string | null = null;
  let key = value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    const m = /^s3:\/\/([^/]*)\/(.*)$/.exec(value);
    if (!m) fail("must be s3://bucket/key or a key in the foundation's weights bucket");
    bucket = m![1]!;
    key = m![2]!;
    if (!bucketName.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket))
      fail(`names '${bucket}', which is not an S3 bucket name (3-63 of a-z, 0-9, '.', '-')`);
  }
  if (key === '' || key.endsWith('/')) fail('must name one object (a key not ending in /)');
  if (key.startsWith('/')) fail("must not start its key with '/' (S3 keys are relative to the bucket)");
  if (/[*?]|\$\{/.test(key)) fail("must not contain '*', '?' or '${' (the role may read exactly one object)");
  if (Buffer.byteLength(key, 'utf8') > 1024) fail('has a key over 1024 bytes');
  if (/[\u0000-\u001f\u007f]/.test(key)) fail('has a control character in its key');
  return { bucket, key };
}

/** Config `lexiconRevision`: any short label; a new one makes a new model (and a rolling update). */
export function parseLexiconRevision(value: string | undefined, lexicon: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (lexicon === undefined)
    throw new Error("config 'lexiconRevision' is set but 'lexicon' is not: set both or neither");
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(value))
    throw new Error(`config 'lexiconRevision' must be 1-64 of A-Z a-z 0-9 . _ : -, got '${value}'`);
  return value;
}

export interface LexiconPolicyArgs extends AwsScope {
  bucket: string;
  key: string;
  /** The foundation's bucket key when the lexicon lies in its weights bucket (SSE-KMS): Decrypt through S3. */
  keyArn?: string;
}

/** s3:GetObject on the one object; kms:Decrypt on the foundation's key through S3 when it is in that bucket. */
export function lexiconPolicy(a: LexiconPolicyArgs): PolicyDocument {
  return policyDocument([
    {
      Sid: 'ReadLexicon',
      Effect: 'Allow',
      Action: ['s3:GetObject'],
      Resource: `arn:${a.partition}:s3:::${a.bucket}/${a.key}`,
    },
    ...(a.keyArn === undefined
      ? []
      : [
          {
            Sid: 'DecryptLexicon',
            Effect: 'Allow' as const,
            Action: ['kms:Decrypt'],
            Resource: a.keyArn,
            Condition: { StringEquals: { 'kms:ViaService': `s3.${a.region}.amazonaws.com` } },
          },
        ]),
  ]);
}

/** The object's bucket, and whether it is the foundation's (whose KMS key then encrypts it). */
export function lexiconTarget(
  location: LexiconLocation,
  weightsBucket: string,
): { bucket: string; ownBucket: boolean } {
  const bucket = location.bucket ?? weightsBucket;
  return { bucket, ownBucket: bucket === weightsBucket };
}

/** The role name in `arn:<partition>:iam::<account>:role/<path/>name`. */
export function roleNameOf(roleArn: string): string {
  const m = /^arn:[a-z-]+:iam::\d{12}:role\/(?:[^/]+\/)*([\w+=,.@-]{1,64})$/.exec(roleArn);
  if (!m) throw new Error(`foundation output 'sagemakerRoleArn' is not an IAM role ARN: '${roleArn}'`);
  return m[1]!;
}

/** The lexicon's IAM grant on the SageMaker role, and the KOKORO_LEXICON value. */
export function lexiconAccess(
  name: string,
  args: {
    location: LexiconLocation;
    scope: pulumi.Input<AwsScope>;
    roleArn: pulumi.Input<string>;
    weightsBucketName: pulumi.Input<string>;
    weightsKeyArn: pulumi.Input<string>;
  },
): { uri: pulumi.Output<string>; policy: aws.iam.RolePolicy } {
  const { location } = args;
  const target = pulumi.output(args.weightsBucketName).apply((weights) => lexiconTarget(location, weights));
  const policy = new aws.iam.RolePolicy(name, {
    role: pulumi.output(args.roleArn).apply(roleNameOf),
    policy: pulumi
      .all([args.scope, target, args.weightsKeyArn])
      .apply(([scope, t, keyArn]) =>
        JSON.stringify(
          lexiconPolicy({ ...scope, bucket: t.bucket, key: location.key, ...(t.ownBucket ? { keyArn } : {}) }),
        ),
      ),
  });
  return { uri: target.apply((t) => `s3://${t.bucket}/${location.key}`), policy };
}
