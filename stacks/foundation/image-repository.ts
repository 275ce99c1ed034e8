// An ECR repository for one image: scan on push, immutable tags, KMS encryption, and a lifecycle
// policy that keeps the last N images.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

export interface ImageRepositoryArgs {
  tags: pulumi.Input<Record<string, string>>;
  /** Images kept; older ones expire. Default 10. */
  keepImages?: number;
  /** Let `pulumi destroy` delete a repository that still holds images. Default false. */
  forceDelete?: boolean;
}

/** ECR lifecycle policy document keeping the newest `count` images, tagged or not. */
export function keepLastImagesPolicy(count: number): string {
  if (!Number.isInteger(count) || count < 1) throw new Error(`keepImages must be a positive integer, got ${count}`);
  return JSON.stringify({
    rules: [
      {
        rulePriority: 1,
        description: `keep the last ${count} images`,
        selection: { tagStatus: 'any', countType: 'imageCountMoreThan', countNumber: count },
        action: { type: 'expire' },
      },
    ],
  });
}

export class ImageRepository extends pulumi.ComponentResource {
  declare readonly repositoryUrl: pulumi.Output<string>;
  declare readonly repositoryArn: pulumi.Output<string>;

  constructor(name: string, args: ImageRepositoryArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:foundation:ImageRepository', name, {}, opts);
    const repository = new aws.ecr.Repository(
      name,
      {
        imageScanningConfiguration: { scanOnPush: true },
        imageTagMutability: 'IMMUTABLE',
        encryptionConfigurations: [{ encryptionType: 'KMS' }],
        forceDelete: args.forceDelete ?? false,
        tags: args.tags,
      },
      { parent: this },
    );
    new aws.ecr.LifecyclePolicy(
      `${name}-lifecycle`,
      {
        repository: repository.name,
        policy: keepLastImagesPolicy(args.keepImages ?? 10),
      },
      { parent: this },
    );

    this.repositoryUrl = repository.repositoryUrl;
    this.repositoryArn = repository.arn;
    this.registerOutputs({ repositoryUrl: this.repositoryUrl, repositoryArn: this.repositoryArn });
  }
}
