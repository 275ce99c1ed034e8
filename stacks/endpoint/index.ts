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
  projectNames,
  requireFoundationRegion,
  requireProducerOutput,
  resourceName,
  stackRef,
} from '../shared/index.ts';
import { awsScope } from '../shared/iam.ts';
import { lexiconAccess } from './lexicon.ts';
import { readEndpointSettings } from './settings.ts';
import { VariantAutoscaling } from './autoscaling.ts';
import { chooseInferenceAmi, dockerfileCuda } from './gpu-drivers.ts';
import { EndpointMonitoring, noInstancesAlarm, noLoadMetricAlarm } from './monitoring.ts';
import { TtsEndpoint, weightsUnderPrefix } from './tts-endpoint.ts';

// Every setting, checked here, at preview, so a bad value fails with the key named before anything is declared.
const settings = readEndpointSettings();
const { instanceType, variantName: variant, device, dtype } = settings;
const tags = defaultTags({ layer: 'endpoint' });

// The container is an npm workspace: the build context is the repository root.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = `${repoRoot}container/Dockerfile`;
// The driver the instances run must run the image's CUDA (checked here, at preview).
const inferenceAmiVersion = chooseInferenceAmi({
  instanceType,
  device,
  configured: settings.inferenceAmiVersion,
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
  settings.lexicon &&
  lexiconAccess(resourceName('lexicon'), {
    location: settings.lexicon,
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
  latencyAlarmMs: settings.latencyAlarmMs,
  refusalAlarmPerMinute: settings.refusalAlarmPerMinute,
  alarmTopicArn: settings.alarmTopicArn,
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
    ...(settings.lexiconRevision === undefined ? {} : { KOKORO_LEXICON_REVISION: settings.lexiconRevision }),
    ...settings.limits,
  })),
  instanceType,
  inferenceAmiVersion,
  initialInstanceCount: settings.initialInstanceCount,
  variantName: variant,
  containerStartupTimeoutSeconds: settings.containerStartupTimeoutSeconds,
  modelDownloadTimeoutSeconds: settings.modelDownloadTimeoutSeconds,
  rollbackAlarmNames: [monitoring.errorAlarmName],
  modelDependsOn: lexicon ? [lexicon.policy] : [],
  tags,
});

// Created after the endpoint is InService. It was a child of the monitoring component: the alias keeps it.
noInstancesAlarm(
  resourceName('tts'),
  { endpointName: tts.endpointName, variantName: variant, alarmTopicArn: settings.alarmTopicArn, tags },
  { dependsOn: [tts], aliases: [{ parent: monitoring }] },
);
noLoadMetricAlarm(
  resourceName('tts'),
  { endpointName: tts.endpointName, variantName: variant, alarmTopicArn: settings.alarmTopicArn, tags },
  { dependsOn: [tts] },
);

// Off while changing instanceType: SageMaker refuses to change the type of an autoscaled variant.
if (settings.autoscaling)
  new VariantAutoscaling(resourceName('tts-scaling'), {
    endpointName: tts.endpointName,
    variantName: variant,
    ...settings.autoscaling,
    tags,
  });

export const endpointName = tts.endpointName;
export const endpointArn = tts.endpointArn;
export const endpointConfigName = tts.endpointConfigName;
export const variantName = variant;
export const imageUri = image.imageUri;
// The agent-runtime layer's alarms notify the same topic unless told otherwise ('' = none).
export const alarmTopicArn = settings.alarmTopicArn ?? '';
