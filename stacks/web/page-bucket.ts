// The page's bucket: private (all public access blocked, owner-enforced, no website hosting),
// S3-managed encryption, TLS-only, and readable by one CloudFront distribution only, through its
// origin access control (the bucket policy names the distribution's ARN).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { privateBucketSettings } from '../shared/private-bucket.ts';
import { denyInsecureTransport, policyDocument, type PolicyDocument } from '../shared/iam.ts';

export interface PageBucketArgs {
  tags: pulumi.Input<Record<string, string>>;
}

/**
 * The page bucket's policy: TLS only, and GetObject for CloudFront on behalf of this one
 * distribution (AWS:SourceArn), as origin access control requires. No ListBucket: a missing file
 * is a 403 from S3, which CloudFront passes on.
 */
export function pageBucketPolicy(bucketArn: string, distributionArn: string): PolicyDocument {
  if (!/^arn:aws[\w-]*:cloudfront::\d{12}:distribution\/\w+$/.test(distributionArn)) {
    throw new Error(`'${distributionArn}' is not a CloudFront distribution ARN`);
  }
  return policyDocument([
    denyInsecureTransport(bucketArn),
    {
      Sid: 'ReadThroughTheDistribution',
      Effect: 'Allow',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: ['s3:GetObject'],
      Resource: `${bucketArn}/*`,
      Condition: { StringEquals: { 'AWS:SourceArn': distributionArn } },
    },
  ]);
}

export class PageBucket extends pulumi.ComponentResource {
  declare readonly bucketName: pulumi.Output<string>;
  declare readonly bucketArn: pulumi.Output<string>;
  /** The regional endpoint CloudFront's origin names (never the website endpoint). */
  declare readonly regionalDomainName: pulumi.Output<string>;
  /** The settings that make the bucket private; its policy is attached after them. */
  declare readonly hardening: pulumi.Resource[];
  declare private readonly name: string;
  declare private readonly bucketId: pulumi.Output<string>;

  constructor(name: string, args: PageBucketArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:web:PageBucket', name, {}, opts);
    const parent = { parent: this };
    this.name = name;
    // Nothing here but what the site layer writes again on each `pulumi up`.
    const bucket = new aws.s3.Bucket(name, { forceDestroy: true, tags: args.tags }, parent);
    this.hardening = [
      ...privateBucketSettings(name, bucket.id, parent),
      new aws.s3.BucketServerSideEncryptionConfiguration(
        `${name}-encryption`,
        // S3-managed keys: a KMS key would need CloudFront in its key policy, for public files.
        { bucket: bucket.id, rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } }] },
        parent,
      ),
    ];

    this.bucketId = bucket.id;
    this.bucketName = bucket.bucket;
    this.bucketArn = bucket.arn;
    this.regionalDomainName = bucket.bucketRegionalDomainName;
    this.registerOutputs({ bucketName: this.bucketName, bucketArn: this.bucketArn });
  }

  /** Attaches the policy that lets this distribution (and nothing else) read the files. */
  readableBy(distributionArn: pulumi.Input<string>): aws.s3.BucketPolicy {
    return new aws.s3.BucketPolicy(
      `${this.name}-policy`,
      {
        bucket: this.bucketId,
        policy: pulumi
          .all([this.bucketArn, distributionArn])
          .apply(([bucketArn, arn]) => JSON.stringify(pageBucketPolicy(bucketArn, arn))),
      },
      // The public access block goes first, so the policy is never evaluated on an open bucket.
      { parent: this, dependsOn: this.hardening },
    );
  }
}
