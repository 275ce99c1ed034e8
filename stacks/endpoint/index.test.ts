// endpoint under Pulumi mocks: image platform, model data from model-cache, variant settings,
// in-place endpoint updates, autoscaling, alarms, and the stack outputs it reads and exports.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { endpointOutputs, foundationOutputs, modelCacheOutputs } from '../shared/outputs.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { account, fakeOutputs, organization, region, runProgram, type ProgramRun } from '../testing/mocks.ts';
import { modelDataSource, weightsUnderPrefix } from './tts-endpoint.ts';

const modelDataUri =
  's3://weights-bucket/models/onnx-community/Kokoro-82M-v1.0-ONNX/1939ad2a8e416c0acfeecc08a694d14ef25f2231/';
const repositoryUrl = `${account}.dkr.ecr.${region}.amazonaws.com/tts`;
let run: ProgramRun;

beforeAll(async () => {
  run = await runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config: { 'kokoro-endpoint:maxSessions': '64', 'kokoro-endpoint:modelCacheStack': 'weights' },
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, {
        region,
        endpointName: 'kokoro-dev-tts',
        weightsBucketName: 'weights-bucket',
        weightsPrefix: 'models/',
        containerRepositoryUrl: repositoryUrl,
        sagemakerRoleArn: `arn:aws:iam::${account}:role/sagemaker`,
      }),
      [`${organization}/kokoro-model-cache/weights`]: fakeOutputs(modelCacheOutputs, {
        modelDataUri,
        include: ['*.json', 'onnx/model.onnx'],
      }),
    },
  });
});

test('reads only outputs its producers export, and exports exactly its contract', () => {
  expect(Object.keys(run.reads).sort()).toEqual([
    `${organization}/kokoro-foundation/dev`,
    `${organization}/kokoro-model-cache/weights`,
  ]);
  for (const name of run.reads[`${organization}/kokoro-foundation/dev`]!) expect(foundationOutputs).toContain(name);
  expect(run.reads[`${organization}/kokoro-model-cache/weights`]!.sort()).toEqual(['include', 'modelDataUri']);
  expect(run.reads[`${organization}/kokoro-foundation/dev`]).toContain('region');
  expect(Object.keys(run.outputs).sort()).toEqual([...endpointOutputs].sort());
  expect(run.outputs).toMatchObject({
    endpointName: 'kokoro-dev-tts',
    endpointArn: `arn:aws:sagemaker:${region}:${account}:endpoint/kokoro-dev-tts`,
    variantName: 'AllTraffic',
    imageUri: `${repositoryUrl}@sha256:${'ab'.repeat(32)}`,
    alarmTopicArn: '', // none configured
  });
});

test('builds the gpu target of container/Dockerfile for linux/amd64 from the repository root', () => {
  const image = run.find('awsx:ecr:Image').inputs;
  expect(image).toMatchObject({ repositoryUrl, platform: 'linux/amd64', target: 'gpu' });
  expect(image.dockerfile).toBe(`${image.context}container/Dockerfile`);
  expect(image.context).toBe(new URL('../../', import.meta.url).pathname);
});

describe('SageMaker model and endpoint', () => {
  test('model uses the image, the role and the uncompressed model-cache prefix', () => {
    const model = run.find('aws:sagemaker/model:Model').inputs;
    expect(model.executionRoleArn).toBe(`arn:aws:iam::${account}:role/sagemaker`);
    expect(model.primaryContainer.image).toBe(run.outputs.imageUri);
    expect(model.primaryContainer.modelDataSource).toEqual({
      s3DataSources: [{ s3Uri: modelDataUri, s3DataType: 'S3Prefix', compressionType: 'None' }],
    });
    expect(model.primaryContainer.environment).toEqual({
      KOKORO_MODEL_DIR: '/opt/ml/model',
      KOKORO_DTYPE: 'fp32',
      KOKORO_DEVICE: 'cuda',
      METRICS_ENDPOINT_NAME: 'kokoro-dev-tts',
      METRICS_VARIANT_NAME: 'AllTraffic',
      MAX_SESSIONS: '64',
    });
    expect(model.name).toBeUndefined(); // auto-named: a new model on every change
  });

  test('variant: ml.g5.xlarge on the driver 550 AMI, timeouts, least outstanding requests, no volume size', () => {
    const config = run.find('aws:sagemaker/endpointConfiguration:EndpointConfiguration').inputs;
    expect(config.name).toBeUndefined();
    expect(config.dataCaptureConfig).toBeUndefined();
    expect(config.productionVariants).toEqual([
      {
        variantName: 'AllTraffic',
        modelName: run.find('aws:sagemaker/model:Model').state.name,
        instanceType: 'ml.g5.xlarge',
        inferenceAmiVersion: 'al2-ami-sagemaker-inference-gpu-3-1',
        initialInstanceCount: 1,
        containerStartupHealthCheckTimeoutInSeconds: 600,
        modelDataDownloadTimeoutInSeconds: 600,
        routingConfigs: [{ routingStrategy: 'LEAST_OUTSTANDING_REQUESTS' }],
      },
    ]);
  });

  test('the endpoint keeps its name and rolls blue/green with alarm rollback', () => {
    const endpoint = run.find('aws:sagemaker/endpoint:Endpoint').inputs;
    expect(endpoint.name).toBe('kokoro-dev-tts');
    expect(endpoint.endpointConfigName).toBe(run.outputs.endpointConfigName);
    expect(endpoint.deploymentConfig.blueGreenUpdatePolicy.trafficRoutingConfiguration).toEqual({
      type: 'ALL_AT_ONCE',
      waitIntervalInSeconds: 120,
    });
    expect(endpoint.deploymentConfig.autoRollbackConfiguration.alarms).toEqual([
      { alarmName: run.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-5xx').state.name },
    ]);
  });
});

test("autoscaling tracks the containers' LoadRatio (their EMF metric) between 1 and 2 instances", () => {
  expect(run.find('aws:appautoscaling/target:Target').inputs).toMatchObject({
    resourceId: 'endpoint/kokoro-dev-tts/variant/AllTraffic',
    scalableDimension: 'sagemaker:variant:DesiredInstanceCount',
    minCapacity: 1,
    maxCapacity: 2,
  });
  // One policy: the concurrency one is opt-in (concurrencyTarget), see index.scaling.test.ts.
  expect(run.all('aws:appautoscaling/policy:Policy')).toHaveLength(1);
  expect(run.find('aws:appautoscaling/policy:Policy').inputs.targetTrackingScalingPolicyConfiguration).toEqual({
    targetValue: 0.7,
    customizedMetricSpecification: {
      namespace: 'KokoroSpeech',
      metricName: 'LoadRatio',
      statistic: 'Average',
      dimensions: [
        { name: 'EndpointName', value: 'kokoro-dev-tts' },
        { name: 'VariantName', value: 'AllTraffic' },
      ],
    },
    scaleInCooldown: 900,
    scaleOutCooldown: 60,
  });
});

test('alarms on 5xx, p95 latency, refusals, no instances and no load metric, plus a dashboard', () => {
  const alarms = run.all('aws:cloudwatch/metricAlarm:MetricAlarm').map((a) => a.inputs);
  expect(alarms.map((a) => [a.metricName, a.threshold, a.treatMissingData]).sort()).toEqual([
    ['CPUUtilization', 1, 'breaching'],
    ['Invocation5XXErrors', 1, 'notBreaching'],
    ['LoadRatio', 1, 'breaching'],
    ['ModelLatency', 1_000_000, 'notBreaching'],
    ['Refusals', 1, 'notBreaching'],
  ]);
  expect(run.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-refusals').inputs).toMatchObject({
    namespace: 'KokoroSpeech',
    statistic: 'Sum',
    evaluationPeriods: 3,
    datapointsToAlarm: 2,
  });
  const noLoadMetric = run.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-no-load-metric');
  expect(noLoadMetric.inputs).toMatchObject({
    namespace: 'KokoroSpeech',
    statistic: 'SampleCount',
    evaluationPeriods: 10,
  });
  expect(noLoadMetric.dependencies).toContain(
    'urn:pulumi:dev::kokoro-endpoint::kokoro:endpoint:TtsEndpoint$aws:sagemaker/endpoint:Endpoint::kokoro-dev-tts',
  );
  for (const alarm of alarms)
    expect(alarm.dimensions).toEqual({ EndpointName: 'kokoro-dev-tts', VariantName: 'AllTraffic' });
  // The no-instances alarm waits for the endpoint to be InService, so the first creation does not start in ALARM.
  const noInstances = run.find('aws:cloudwatch/metricAlarm:MetricAlarm', 'kokoro-dev-tts-no-instances');
  const urn = (chain: string, name: string) => `urn:pulumi:dev::kokoro-endpoint::${chain}::${name}`;
  expect(noInstances.dependencies).toContain(
    urn('kokoro:endpoint:TtsEndpoint$aws:sagemaker/endpoint:Endpoint', 'kokoro-dev-tts'),
  );
  expect(noInstances.inputs).toMatchObject({ evaluationPeriods: 5, datapointsToAlarm: 5, statistic: 'SampleCount' });
  expect(noInstances.aliases).toEqual([
    JSON.stringify({ name: '', type: '', parent: urn('kokoro:endpoint:EndpointMonitoring', 'kokoro-dev-tts') }),
  ]);
  const body = JSON.parse(run.find('aws:cloudwatch/dashboard:Dashboard').inputs.dashboardBody);
  expect(body.widgets).toHaveLength(5);
  expect(body.widgets.map((w: { properties: { title: string } }) => w.properties.title)).toContain(
    'Load (the containers’ own metrics)',
  );
});

describe('model data checks', () => {
  test('the URI must be an S3 prefix ending in /', () => {
    expect(() => modelDataSource('s3://bucket/models/repo/commit')).toThrow(/ending in '\/'/);
    expect(() => modelDataSource('https://bucket/models/')).toThrow(/s3:\/\/bucket\/prefix/);
  });

  test('the URI must lie under the prefix the role may read', () => {
    expect(() => weightsUnderPrefix('s3://weights-bucket/other/x/', 'weights-bucket', 'models/')).toThrow(
      "modelDataUri 's3://weights-bucket/other/x/' is outside 's3://weights-bucket/models/'",
    );
    expect(weightsUnderPrefix(modelDataUri, 'weights-bucket', 'models/')).toBe(modelDataUri);
  });
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('creates no IAM document without a lexicon (its roles live in foundation, where the reference check covers them)', async () => {
  expect(run.all('aws:iam/rolePolicy:RolePolicy')).toEqual([]);
  const documents = policyDocumentsOf(run.resources);
  expect(documents).toEqual([]);
  expect(await referenceProblems(documents)).toEqual([]);
});
