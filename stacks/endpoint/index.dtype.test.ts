// endpoint under Pulumi mocks with a dtype whose weights model-cache does not sync: the program
// stops at preview, before declaring any resource, with an error naming the config key.
import { expect, test } from '@jest/globals';
import { foundationOutputs, modelCacheOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

test("a dtype whose ONNX file model-cache's include list does not take is refused at preview", async () => {
  const options = {
    project: 'kokoro-endpoint',
    preview: true,
    config: { 'kokoro-endpoint:dtype': 'fp16' },
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }),
      [`${organization}/kokoro-model-cache/dev`]: fakeOutputs(modelCacheOutputs, {
        include: ['config.json', 'tokenizer.json', 'onnx/model.onnx', 'onnx/model_quantized.onnx'],
      }),
    },
  };
  await expect(runProgram(new URL('./index.ts', import.meta.url), options)).rejects.toThrow(
    "config 'dtype' is fp16, but the model-cache stack syncs no onnx/model_fp16.onnx (its include: config.json, " +
      "tokenizer.json, onnx/model.onnx, onnx/model_quantized.onnx): pick one of fp32, q8 or add the file to model-cache's 'include'",
  );
});
