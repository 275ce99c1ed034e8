// endpoint: builds the TTS container image (linux/amd64), deploys it on a SageMaker real-time
// endpoint with the model-cache weights, autoscales it on the containers' own load metric
// (LoadRatio, published as Embedded Metric Format log lines), and watches it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as awsx from '@pulumi/awsx';
import * as pulumi from '@pulumi/pulumi';
import { KOKORO_ONNX_FILES, kokoroDtypesIn } from '@kokoro-speech/weights/kokoro';
import {
  defaultTags,
  intSetting,
  projectNames,
  requireFoundationRegion,
  requireProducerOutput,
  resourceName,
  stackRef,
} from '../shared/index.ts';
import { awsScope } from '../shared/iam.ts';
import { lexiconAccess, parseLexiconRevision, parseLexiconSetting } from './lexicon.ts';
import { VariantAutoscaling } from './autoscaling.ts';
import { chooseInferenceAmi, dockerfileCuda } from './gpu-drivers.ts';
import { EndpointMonitoring, noInstancesAlarm, noLoadMetricAlarm } from './monitoring.ts';
import { TtsEndpoint, weightsUnderPrefix } from './tts-endpoint.ts';

const config = new pulumi.Config();
const instanceType = config.get('instanceType') ?? 'ml.g5.xlarge';
const variant = config.get('variantName') ?? 'AllTraffic';
const device = config.get('device', { allowedValues: ['cuda', 'cpu'] as const }) ?? 'cuda';
const dtype = config.get('dtype', { allowedValues: ['fp32', 'fp16', 'q8', 'q4', 'q4f16'] as const }) ?? 'fp32';
const initialInstanceCount = intSetting(config, 'initialInstanceCount', 1, { min: 1, max: 20 });
const limits = {
  MAX_CONCURRENT_RUNS: config.getNumber('maxConcurrentRuns'),
  MAX_TEXT_CHARS: config.getNumber('maxTextChars'),
  MAX_QUEUED_PER_SESSION: config.getNumber('maxQueuedPerSession'),
  MAX_SESSIONS: config.getNumber('maxSessions'),
  ADMISSION_MAX_UTILIZATION: config.getNumber('admissionMaxUtilization'),
};
const alarmTopicArnSetting = config.get('alarmTopicArn');
// Checked here, at preview, so a bad value fails with the key named before anything is declared.
const lexiconSetting = config.get('lexicon');
const lexiconLocation = lexiconSetting === undefined ? undefined : parseLexiconSetting(lexiconSetting);
const lexiconRevision = parseLexiconRevision(config.get('lexiconRevision'), lexiconSetting);
const tags = defaultTags({ layer: 'endpoint' });

// The container is an npm workspace: the build context is the repository root.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = `${repoRoot}container/Dockerfile`;
// The driver the instances run must run the image's CUDA (checked here, at preview).
const inferenceAmiVersion = chooseInferenceAmi({
  instanceType,
  device,
  configured: config.get('inferenceAmiVersion'),
  imageCuda: dockerfileCuda(readFileSync(dockerfile, 'utf8')),
});

const foundation = stackRef('foundationStack', projectNames.foundation);
const modelCache = stackRef('modelCacheStack', projectNames.modelCache);
// Checked before anything is declared, so `pulumi preview` fails with the config key named.
const region = await requireFoundationRegion(foundation);
const synced = (await requireProducerOutput(modelCache, 'include', 'stacks/model-cache')) as string[];
if (!kokoroDtypesIn(synced).includes(dtype)) {
  throw new Error(
    `config 'dtype' is ${dtype}, but the model-cache stack syncs no ${KOKORO_ONNX_FILES[dtype]} (its include: ${synced.join(', ')}): ` +
      `pick one of ${kokoroDtypesIn(synced).join(', ') || '(none)'} or add the file to model-cache's 'include'`,
  );
}
const endpointNameInput = foundation.requireOutput('endpointName') as pulumi.Output<string>;
const modelDataUri = pulumi
  .all([
    modelCache.requireOutput('modelDataUri'),
    foundation.requireOutput('weightsBucketName'),
    foundation.requireOutput('weightsPrefix'),
  ])
  .apply(([uri, bucket, prefix]) => weightsUnderPrefix(uri as string, bucket as string, prefix as string));

// The container reads the lexicon once, at start: the role's grant exists before the model does.
const lexicon =
  lexiconLocation &&
  lexiconAccess(resourceName('lexicon'), {
    location: lexiconLocation,
    scope: awsScope(),
    roleArn: foundation.requireOutput('sagemakerRoleArn') as pulumi.Output<string>,
    weightsBucketName: foundation.requireOutput('weightsBucketName') as pulumi.Output<string>,
    weightsKeyArn: foundation.requireOutput('weightsKeyArn') as pulumi.Output<string>,
  });

const image = new awsx.ecr.Image(resourceName('tts-image'), {
  repositoryUrl: foundation.requireOutput('containerRepositoryUrl'),
  context: repoRoot,
  dockerfile,
  target: device === 'cuda' ? 'gpu' : 'cpu',
  platform: 'linux/amd64',
});

const monitoring = new EndpointMonitoring(resourceName('tts'), {
  endpointName: endpointNameInput,
  variantName: variant,
  region,
  latencyAlarmMs: intSetting(config, 'latencyAlarmMs', 1000, { min: 10, max: 60_000 }),
  refusalAlarmPerMinute: intSetting(config, 'refusalAlarmPerMinute', 1, { min: 1, max: 100_000 }),
  alarmTopicArn: alarmTopicArnSetting,
  tags,
});

const tts = new TtsEndpoint(resourceName('tts'), {
  endpointName: endpointNameInput,
  imageUri: image.imageUri,
  executionRoleArn: foundation.requireOutput('sagemakerRoleArn'),
  modelDataUri,
  environment: pulumi.all([endpointNameInput, lexicon?.uri]).apply(([name, lexiconUri]) => ({
    KOKORO_MODEL_DIR: '/opt/ml/model',
    KOKORO_DTYPE: dtype,
    KOKORO_DEVICE: device,
    // The load metrics' dimensions: what the scaling policy and the alarms select.
    METRICS_ENDPOINT_NAME: name,
    METRICS_VARIANT_NAME: variant,
    ...(lexiconUri === undefined ? {} : { KOKORO_LEXICON: lexiconUri }),
    // Read by nobody: a new value changes the model, so the endpoint rolls onto instances that read the object anew.
    ...(lexiconRevision === undefined ? {} : { KOKORO_LEXICON_REVISION: lexiconRevision }),
    ...Object.fromEntries(
      Object.entries(limits)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, String(v)]),
    ),
  })),
  instanceType,
  inferenceAmiVersion,
  initialInstanceCount,
  variantName: variant,
  containerStartupTimeoutSeconds: intSetting(config, 'containerStartupTimeoutSeconds', 600, { min: 60, max: 3600 }),
  modelDownloadTimeoutSeconds: intSetting(config, 'modelDownloadTimeoutSeconds', 600, { min: 60, max: 3600 }),
  rollbackAlarmNames: [monitoring.errorAlarmName],
  modelDependsOn: lexicon ? [lexicon.policy] : [],
  tags,
});

// Created after the endpoint is InService. It was a child of the monitoring component: the alias keeps it.
noInstancesAlarm(
  resourceName('tts'),
  { endpointName: tts.endpointName, variantName: variant, alarmTopicArn: alarmTopicArnSetting, tags },
  { dependsOn: [tts], aliases: [{ parent: monitoring }] },
);
noLoadMetricAlarm(
  resourceName('tts'),
  { endpointName: tts.endpointName, variantName: variant, alarmTopicArn: alarmTopicArnSetting, tags },
  { dependsOn: [tts] },
);

// Off while changing instanceType: SageMaker refuses to change the type of an autoscaled variant.
if (config.getBoolean('autoscaling') ?? true)
  new VariantAutoscaling(resourceName('tts-scaling'), {
    endpointName: tts.endpointName,
    variantName: variant,
    minInstances: intSetting(config, 'minInstances', 1, { min: 1, max: 20 }),
    maxInstances: intSetting(config, 'maxInstances', 2, { min: 1, max: 20 }),
    targetLoadRatio: loadRatioSetting(config.getNumber('targetLoadRatio')),
    ...(config.getNumber('concurrencyTarget') === undefined
      ? {}
      : { concurrencyTarget: intSetting(config, 'concurrencyTarget', 8, { min: 1, max: 1000 }) }),
    scaleInCooldownSeconds: intSetting(config, 'scaleInCooldownSeconds', 900, { min: 0, max: 3600 }),
    tags,
  });

/** `targetLoadRatio`: 0.7 by default (scale out at 70 % of what admission control admits). */
function loadRatioSetting(value: number | undefined): number {
  if (value === undefined) return 0.7;
  if (!(value >= 0.1 && value <= 1))
    throw new Error(
      `config 'targetLoadRatio' must be 0.1 to 1 (a share of the capacity admission control admits), not ${value}`,
    );
  return value;
}

export const endpointName = tts.endpointName;
export const endpointArn = tts.endpointArn;
export const endpointConfigName = tts.endpointConfigName;
export const variantName = variant;
export const imageUri = image.imageUri;
// The agent-runtime layer's alarms notify the same topic unless told otherwise ('' = none).
export const alarmTopicArn = alarmTopicArnSetting ?? '';
