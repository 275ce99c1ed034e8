// endpoint under Pulumi mocks with a targetLoadRatio out of range: the program stops, naming the key.
import { expect, test } from '@jest/globals';
import { foundationOutputs, modelCacheOutputs } from '../shared/outputs.ts';
import { account, fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

const run = (config: Record<string, string>) =>
  runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config,
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, {
        region,
        endpointName: 'kokoro-dev-tts',
        weightsBucketName: 'weights-bucket',
        weightsPrefix: 'models/',
        containerRepositoryUrl: `${account}.dkr.ecr.${region}.amazonaws.com/tts`,
      }),
      [`${organization}/kokoro-model-cache/dev`]: fakeOutputs(modelCacheOutputs, {
        modelDataUri: 's3://weights-bucket/models/acme/tts/c/',
        include: ['*.json', 'onnx/model.onnx'],
      }),
    },
  });

test('a targetLoadRatio out of range stops the preview naming the key', async () => {
  await expect(run({ 'kokoro-endpoint:targetLoadRatio': '1.5' })).rejects.toThrow(
    /config 'targetLoadRatio' must be 0.1 to 1 .*, not 1.5/,
  );
});
