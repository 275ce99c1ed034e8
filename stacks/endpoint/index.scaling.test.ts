// endpoint under Pulumi mocks with the scaling settings changed: a LoadRatio target, the opt-in
// concurrency policy beside it, the container's admission threshold and the refusal alarm's.
// (One program run per file: the program module is imported once per test file.)
import { expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { runProgram } from '../testing/mocks.ts';

const run = (config: Record<string, string>) =>
  runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config,
    stackOutputs: endpointUpstreams(),
  });

test('targetLoadRatio, concurrencyTarget (a second policy), admissionMaxUtilization and refusalAlarmPerMinute', async () => {
  const program = await run({
    'kokoro-endpoint:targetLoadRatio': '0.6',
    'kokoro-endpoint:concurrencyTarget': '24',
    'kokoro-endpoint:admissionMaxUtilization': '0.8',
    'kokoro-endpoint:refusalAlarmPerMinute': '5',
  });
  const policies = program
    .all('aws:appautoscaling/policy:Policy')
    .map((p) => p.inputs.targetTrackingScalingPolicyConfiguration)
    .sort((a, b) => a.targetValue - b.targetValue);
  expect(
    policies.map((p) => [
      p.targetValue,
      p.customizedMetricSpecification?.metricName ?? p.predefinedMetricSpecification.predefinedMetricType,
    ]),
  ).toEqual([
    [0.6, 'LoadRatio'],
    [24, 'SageMakerVariantConcurrentRequestsPerModelHighResolution'],
  ]);
  expect(program.find('aws:sagemaker/model:Model').inputs.primaryContainer.environment).toMatchObject({
    ADMISSION_MAX_UTILIZATION: '0.8',
  });
  expect(program.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-refusals').inputs.threshold).toBe(5);
});
