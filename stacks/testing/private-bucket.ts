// What every private bucket of the stacks must show in a program run (the settings of
// stacks/shared/private-bucket.ts), read from the recorded resources as AWS would receive them.
import type { ProgramRun } from './mocks.ts';

/** The run's one bucket's public access block and ownership rule, in the shape to compare. */
export function privateSettingsOf(run: ProgramRun) {
  const { blockPublicAcls, blockPublicPolicy, ignorePublicAcls, restrictPublicBuckets } = run.find(
    'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
  ).inputs;
  return {
    publicAccess: { blockPublicAcls, blockPublicPolicy, ignorePublicAcls, restrictPublicBuckets },
    ownership: run.find('aws:s3/bucketOwnershipControls:BucketOwnershipControls').inputs.rule,
  };
}

/** What privateSettingsOf must give: all public access blocked, ACLs off (the owner owns every object). */
export const PRIVATE_BUCKET = {
  publicAccess: { blockPublicAcls: true, blockPublicPolicy: true, ignorePublicAcls: true, restrictPublicBuckets: true },
  ownership: { objectOwnership: 'BucketOwnerEnforced' },
};
