// endpoint under Pulumi mocks on a CPU instance type: the cpu image target and no inference AMI
// (SageMaker's inference AMIs are for GPU and Neuron instances).
import { beforeAll, expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { runProgram, type ProgramRun } from '../testing/mocks.ts';

let run: ProgramRun;

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config: {
      'kokoro-endpoint:instanceType': 'ml.c7i.xlarge',
      'kokoro-endpoint:device': 'cpu',
      'kokoro-endpoint:dtype': 'q8',
    },
    stackOutputs: endpointUpstreams(['*.json', 'onnx/model_quantized.onnx']),
  });
});

test('builds the cpu target and sets no inference AMI on the variant', () => {
  expect(run.find('awsx:ecr:Image').inputs.target).toBe('cpu');
  const [variant] = run.find('aws:sagemaker/endpointConfiguration:EndpointConfiguration').inputs.productionVariants;
  expect(variant).toMatchObject({ instanceType: 'ml.c7i.xlarge' });
  expect('inferenceAmiVersion' in variant).toBe(false);
  expect(run.find('aws:sagemaker/model:Model').inputs.primaryContainer.environment).toMatchObject({
    KOKORO_DEVICE: 'cpu',
    KOKORO_DTYPE: 'q8',
  });
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});
