// What the endpoint program reads from its upstream stacks (foundation and model-cache, both
// `dev`), as fakes: one fixture for the endpoint test files that only vary its config.
import { foundationOutputs, modelCacheOutputs } from '../shared/outputs.ts';
import { account, fakeOutputs, organization, region } from './mocks.ts';

/** Stack outputs for `runProgram`; `include` is the model-cache's synced file list. */
export function endpointUpstreams(include: string[] = ['*.json', 'onnx/model.onnx']) {
  return {
    [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, {
      region,
      endpointName: 'kokoro-dev-tts',
      weightsBucketName: 'weights-bucket',
      weightsPrefix: 'models/',
      containerRepositoryUrl: `${account}.dkr.ecr.${region}.amazonaws.com/tts`,
      sagemakerRoleArn: `arn:aws:iam::${account}:role/kokoro-dev-sagemaker-role-0a1b2c3`,
      weightsKeyArn: `arn:aws:kms:${region}:${account}:key/1234abcd-12ab-34cd-56ef-1234567890ab`,
    }),
    [`${organization}/kokoro-model-cache/dev`]: fakeOutputs(modelCacheOutputs, {
      modelDataUri: 's3://weights-bucket/models/acme/tts/c/',
      include,
    }),
  };
}
