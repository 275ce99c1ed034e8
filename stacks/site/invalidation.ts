// Invalidates the distribution's cache during `pulumi up` once the page's files have changed: a
// dynamic resource whose `digest` input is a hash of every file it serves, so an update with the
// same files changes nothing and one with new files asks CloudFront for a new invalidation. The
// AWS provider has no invalidation resource (CreateInvalidation is an action, not a resource).
import * as pulumi from '@pulumi/pulumi';
import type * as CloudFront from '@aws-sdk/client-cloudfront';

export interface InvalidationRequest {
  distributionId: string;
  /** Paths to invalidate (`/*` counts as one path for CloudFront's billing). */
  paths: string[];
  /** A hash of what the distribution serves; the invalidation runs again when it changes. */
  digest: string;
}

/**
 * Asks CloudFront to drop the paths from every edge cache; returns the invalidation's id without
 * waiting for it (it completes within minutes, in the background). Takes the module and client as
 * arguments and uses nothing else from this module's scope: the dynamic provider serializes it.
 */
export async function createInvalidation(
  cloudfront: typeof CloudFront,
  client: CloudFront.CloudFrontClient,
  request: InvalidationRequest,
): Promise<string> {
  if (!/^[A-Z0-9]+$/.test(request.distributionId)) {
    throw new Error(`'${request.distributionId}' is not a CloudFront distribution id`);
  }
  const response = await client.send(
    new cloudfront.CreateInvalidationCommand({
      DistributionId: request.distributionId,
      InvalidationBatch: {
        // Unique per call: CloudFront answers a repeated reference with the earlier invalidation,
        // so a return to files served before would otherwise invalidate nothing.
        CallerReference: `${request.digest.slice(0, 32)}-${Date.now()}`,
        Paths: { Quantity: request.paths.length, Items: request.paths },
      },
    }),
  );
  const id = response.Invalidation?.Id;
  if (id === undefined) throw new Error(`CloudFront returned no invalidation id for ${request.distributionId}`);
  return id;
}

async function invalidate(request: InvalidationRequest): Promise<{ invalidationId: string }> {
  // Loaded with require inside the provider process: the provider is serialized without module imports.
  const cloudfront = require('@aws-sdk/client-cloudfront') as typeof CloudFront;
  const log = (require('@pulumi/pulumi') as typeof pulumi).log;
  // CloudFront's API has one endpoint, in us-east-1, for every distribution.
  const client = new cloudfront.CloudFrontClient({ region: 'us-east-1' });
  const invalidationId = await createInvalidation(cloudfront, client, request);
  void log.info(`CloudFront invalidation ${invalidationId} of ${request.paths.join(' ')} on ${request.distributionId}`);
  return { invalidationId };
}

/** Exported for tests only: Pulumi serializes it into the state and runs it in its provider process. */
export const invalidationProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: InvalidationRequest) {
    const { invalidationId } = await invalidate(inputs);
    return { id: invalidationId, outs: { ...inputs, invalidationId } };
  },
  async diff(_id, olds: InvalidationRequest, news: InvalidationRequest) {
    const changed = ['distributionId', 'digest'].some(
      (k) => olds[k as keyof InvalidationRequest] !== news[k as keyof InvalidationRequest],
    );
    return {
      changes: changed || JSON.stringify(olds.paths) !== JSON.stringify(news.paths),
      replaces: [],
      deleteBeforeReplace: false,
    };
  },
  async update(_id, _olds, news: InvalidationRequest) {
    return { outs: { ...news, ...(await invalidate(news)) } };
  },
  // An invalidation cannot be undone, and there is nothing to delete.
  async delete() {},
};

export interface InvalidationArgs {
  distributionId: pulumi.Input<string>;
  paths: pulumi.Input<string[]>;
  digest: pulumi.Input<string>;
}

export class Invalidation extends pulumi.dynamic.Resource {
  declare readonly invalidationId: pulumi.Output<string>;

  constructor(name: string, args: InvalidationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      invalidationProvider,
      name,
      { distributionId: args.distributionId, paths: args.paths, digest: args.digest, invalidationId: undefined },
      opts,
      'site',
      'Invalidation',
    );
  }
}
