// What keeps any of the stacks' buckets private: all four public access settings on, and the owner
// enforced (ACLs off), as `<name>-public-access` and `<name>-ownership` beside the bucket.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

/** The bucket's public access block and ownership controls; attach its policy after them. */
export function privateBucketSettings(
  name: string,
  bucketId: pulumi.Input<string>,
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResource[] {
  return [
    new aws.s3.BucketPublicAccessBlock(
      `${name}-public-access`,
      {
        bucket: bucketId,
        blockPublicAcls: true,
        blockPublicPolicy: true,
        ignorePublicAcls: true,
        restrictPublicBuckets: true,
      },
      opts,
    ),
    new aws.s3.BucketOwnershipControls(
      `${name}-ownership`,
      { bucket: bucketId, rule: { objectOwnership: 'BucketOwnerEnforced' } },
      opts,
    ),
  ];
}
