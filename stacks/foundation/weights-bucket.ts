// The weights bucket: KMS-encrypted with this stack's rotating key, versioned, private, TLS-only,
// owner-enforced, abandoned multipart uploads cleaned up, access logging optional.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { privateBucketSettings } from '../shared/private-bucket.ts';
import { denyInsecureTransport, policyDocument } from '../shared/iam.ts';

export interface WeightsBucketArgs {
  tags: pulumi.Input<Record<string, string>>;
  /** Existing bucket that receives S3 server access logs; no logging when unset. */
  accessLogBucket?: pulumi.Input<string>;
  /** Days after which non-current object versions are deleted. Default 30. */
  noncurrentVersionDays?: number;
  /** Let `pulumi destroy` delete a non-empty bucket. Default false. */
  forceDestroy?: boolean;
}

/** TLS-only bucket policy: deny every request that arrives without TLS. */
export function tlsOnlyPolicy(bucketArn: string): string {
  return JSON.stringify(policyDocument([denyInsecureTransport(bucketArn)]));
}

export class WeightsBucket extends pulumi.ComponentResource {
  declare readonly bucketName: pulumi.Output<string>;
  declare readonly bucketArn: pulumi.Output<string>;
  declare readonly keyArn: pulumi.Output<string>;

  constructor(name: string, args: WeightsBucketArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:foundation:WeightsBucket', name, {}, opts);
    const parent = { parent: this };

    const key = new aws.kms.Key(
      `${name}-key`,
      {
        description: 'Kokoro model weights',
        enableKeyRotation: true,
        deletionWindowInDays: 30,
        tags: args.tags,
      },
      parent,
    );
    new aws.kms.Alias(`${name}-key-alias`, { name: `alias/${name}`, targetKeyId: key.keyId }, parent);

    const bucket = new aws.s3.Bucket(name, { forceDestroy: args.forceDestroy ?? false, tags: args.tags }, parent);
    const hardening = [
      ...privateBucketSettings(name, bucket.id, parent),
      new aws.s3.BucketServerSideEncryptionConfiguration(
        `${name}-encryption`,
        {
          bucket: bucket.id,
          rules: [
            {
              applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: key.arn },
              bucketKeyEnabled: true,
            },
          ],
        },
        parent,
      ),
      new aws.s3.BucketVersioning(
        `${name}-versioning`,
        {
          bucket: bucket.id,
          versioningConfiguration: { status: 'Enabled' },
        },
        parent,
      ),
    ];
    new aws.s3.BucketLifecycleConfiguration(
      `${name}-lifecycle`,
      {
        bucket: bucket.id,
        rules: [
          {
            id: 'abort-incomplete-uploads',
            status: 'Enabled',
            filter: {},
            abortIncompleteMultipartUpload: { daysAfterInitiation: 1 },
          },
          {
            id: 'expire-noncurrent-versions',
            status: 'Enabled',
            filter: {},
            noncurrentVersionExpiration: { noncurrentDays: args.noncurrentVersionDays ?? 30 },
          },
        ],
      },
      { parent: this, dependsOn: hardening },
    );
    // The public access block goes first so that the policy is never evaluated on an open bucket.
    new aws.s3.BucketPolicy(
      `${name}-policy`,
      {
        bucket: bucket.id,
        policy: bucket.arn.apply(tlsOnlyPolicy),
      },
      { parent: this, dependsOn: hardening },
    );
    if (args.accessLogBucket !== undefined) {
      new aws.s3.BucketLogging(
        `${name}-logging`,
        {
          bucket: bucket.id,
          targetBucket: args.accessLogBucket,
          targetPrefix: pulumi.interpolate`${bucket.bucket}/`,
        },
        parent,
      );
    }

    this.bucketName = bucket.bucket;
    this.bucketArn = bucket.arn;
    this.keyArn = key.arn;
    this.registerOutputs({ bucketName: this.bucketName, bucketArn: this.bucketArn, keyArn: this.keyArn });
  }
}
