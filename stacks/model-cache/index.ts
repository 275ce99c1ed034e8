// model-cache: copies one pinned Hugging Face revision (by default the Kokoro-82M ONNX export) into
// the foundation's weights bucket with a Step Functions sync, runs that sync during `pulumi up`, and
// exports where the verified weights lie for the endpoint stack.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { modelKeyPrefix } from '@kokoro-speech/weights/layout';
import { defaultTags, projectNames, requireFoundationRegion, resourceName, stackRef } from '../shared/index.ts';
import { readSettings } from './settings.ts';
import { SyncExecution } from './sync-execution.ts';
import { WeightSync } from './weight-sync.ts';

const config = new pulumi.Config();
const hfToken = config.getSecret('hfToken');
const settings = readSettings(config, hfToken !== undefined);
const tags = defaultTags({ layer: 'model-cache' });

const foundation = stackRef('foundationStack', projectNames.foundation);
const region = await requireFoundationRegion(foundation);
const bucketName = foundation.requireOutput('weightsBucketName') as pulumi.Output<string>;
const prefix = foundation.requireOutput('weightsPrefix') as pulumi.Output<string>;

// A token given as secret config is kept in a secret of this stack; only the Lambdas that call the Hub read it.
let hfTokenSecretArn: pulumi.Input<string> | undefined = settings.hfTokenSecretArn;
if (hfToken !== undefined) {
  const secret = new aws.secretsmanager.Secret(resourceName('hf-token'), {
    description: 'Hugging Face token for the weight sync',
    recoveryWindowInDays: 7,
    tags,
  });
  new aws.secretsmanager.SecretVersion(resourceName('hf-token'), { secretId: secret.id, secretString: hfToken });
  hfTokenSecretArn = secret.arn;
}

const weightSync = new WeightSync(resourceName('weight-sync'), {
  bucketName,
  bucketArn: foundation.requireOutput('weightsBucketArn') as pulumi.Output<string>,
  keyArn: foundation.requireOutput('weightsKeyArn') as pulumi.Output<string>,
  prefix,
  defaults: { repo: settings.repo, revision: settings.revision, include: settings.include },
  hfTokenSecretArn,
  hfEndpoint: settings.hfEndpoint,
  maxConcurrency: settings.maxConcurrency,
  partSizeMiB: settings.partSizeMiB,
  logRetentionDays: settings.logRetentionDays,
  tags,
});

// The folder the sync fills; with syncOnUp the outputs wait for (and come from) a successful sync.
const request = pulumi.all([bucketName, prefix]).apply(([bucket, prefix]) => ({
  repo: settings.repo,
  revision: settings.revision,
  include: settings.include,
  bucket,
  prefix,
}));
const synced = settings.syncOnUp
  ? new SyncExecution(resourceName('weight-sync-run'), {
      stateMachineArn: weightSync.stateMachineArn,
      region,
      request,
    })
  : undefined;
const keyPrefix = prefix.apply((prefix) => modelKeyPrefix(prefix, settings.repo, settings.revision));

export const modelDataUri = synced?.modelDataUri ?? pulumi.interpolate`s3://${bucketName}/${keyPrefix}`;
export const commit = synced?.commit ?? pulumi.output(settings.revision);
export const stateMachineArn = weightSync.stateMachineArn;
export const manifestKey = synced?.manifestKey ?? pulumi.interpolate`${keyPrefix}manifest.json`;
export const include = settings.include; // the endpoint checks that its dtype's file is among them
