// endpoint under Pulumi mocks with the scaling settings changed: a LoadRatio target, the opt-in
// concurrency policy beside it, the container's admission threshold, the refusal alarm's, and an
// alarm topic (exported for the agent-runtime layer).
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
    'kokoro-endpoint:alarmTopicArn': 'arn:aws:sns:us-east-1:123456789012:oncall',
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
  const refusals = program.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-refusals').inputs;
  expect(refusals.threshold).toBe(5);
  // The topic notifies, and is exported for the agent-runtime layer's alarms.
  expect(refusals.alarmActions).toEqual(['arn:aws:sns:us-east-1:123456789012:oncall']);
  expect(program.outputs.alarmTopicArn).toBe('arn:aws:sns:us-east-1:123456789012:oncall');
});
