// foundation: the weights bucket and its key, the two image repositories, the SageMaker and
// AgentCore execution roles, and the endpoint's name (fixed here so the agent role can name its ARN).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { defaultTags, intSetting, resourceName, retentionDaysSetting, STT_PROVIDERS } from '../shared/index.ts';
import { ImageRepository } from './image-repository.ts';
import { awsScope } from '../shared/iam.ts';
import { ServiceRole, takesOver } from '../shared/service-role.ts';
import { agentRuntimePolicy, sagemakerPolicy } from './policies.ts';
import { WeightsBucket } from './weights-bucket.ts';

const config = new pulumi.Config();
const weightsPrefixSetting = config.get('weightsPrefix') ?? 'models/';
const sessionsPrefix = config.get('sessionsPrefix') ?? 'sessions/';
if (!/^[a-z0-9][a-z0-9/_-]*\/$/.test(sessionsPrefix) || sessionsPrefix.startsWith(weightsPrefixSetting)) {
  throw new Error(
    `config 'sessionsPrefix' must be a key prefix ending in '/' outside weightsPrefix '${weightsPrefixSetting}', got '${sessionsPrefix}'`,
  );
}
const endpointNameSetting = config.get('endpointName') ?? resourceName('tts');
const bedrockModelIdsSetting = config.getObject<string[]>('bedrockModelIds') ?? [
  'us.anthropic.claude-haiku-4-5-20251001-v1:0',
];
// What the agent hears with (the agent-runtime layer's STT_PROVIDER follows it): its role may call
// Amazon Transcribe streaming only with `transcribe`.
const sttProvider = config.get('sttProvider', { allowedValues: [...STT_PROVIDERS] }) ?? 'transcribe';
const forceDestroy = config.getBoolean('forceDestroy') ?? false;
const keepImages = intSetting(config, 'keepImages', 10, { min: 1, max: 1000 });
const logRetentionDays = retentionDaysSetting(config, 'logRetentionDays', 30);
if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(endpointNameSetting)) {
  throw new Error(
    `config 'endpointName' must be 1-63 lower-case letters, digits or dashes, got '${endpointNameSetting}'`,
  );
}
const tags = defaultTags({ layer: 'foundation' });

const scope = awsScope();

/**
 * Until ServiceRole moved to shared/, each role here was a `kokoro:foundation:ServiceRole` named like
 * its role (no `-role` suffix): aliases to those URNs keep existing stacks' roles and their names.
 */
function formerFoundationRole(name: string): pulumi.ComponentResourceOptions {
  const oldComponent = pulumi.createUrn(name, 'kokoro:foundation:ServiceRole');
  return takesOver(
    {
      role: pulumi.createUrn(name, 'aws:iam/role:Role', oldComponent),
      policy: pulumi.createUrn(`${name}-policy`, 'aws:iam/rolePolicy:RolePolicy', oldComponent),
    },
    [{ type: 'kokoro:foundation:ServiceRole' }],
  );
}

const weights = new WeightsBucket(resourceName('weights'), {
  tags,
  accessLogBucket: config.get('accessLogBucket'),
  forceDestroy,
});
const containerRepository = new ImageRepository(resourceName('tts-container'), {
  tags,
  keepImages,
  forceDelete: forceDestroy,
});
const runtimeRepository = new ImageRepository(resourceName('agent-runtime'), {
  tags,
  keepImages,
  forceDelete: forceDestroy,
});

// SageMaker writes here; creating it ourselves sets the retention.
new aws.cloudwatch.LogGroup(resourceName('endpoint-logs'), {
  name: `/aws/sagemaker/Endpoints/${endpointNameSetting}`,
  retentionInDays: logRetentionDays,
  tags,
});

const sagemakerRole = new ServiceRole(
  resourceName('sagemaker'),
  {
    service: 'sagemaker.amazonaws.com',
    description: 'SageMaker execution role for the Kokoro TTS endpoint',
    scope,
    policy: pulumi
      .all([scope, weights.bucketArn, weights.keyArn, containerRepository.repositoryArn])
      .apply(([scope, bucketArn, keyArn, repositoryArn]) =>
        sagemakerPolicy({
          ...scope,
          bucketArn,
          keyArn,
          repositoryArn,
          weightsPrefix: weightsPrefixSetting,
          endpointName: endpointNameSetting,
        }),
      ),
    tags,
  },
  formerFoundationRole(resourceName('sagemaker')),
);

const agentRuntimeRole = new ServiceRole(
  resourceName('agentcore'),
  {
    service: 'bedrock-agentcore.amazonaws.com',
    description: 'AgentCore runtime execution role for the Kokoro voice agent',
    scope,
    policy: pulumi
      .all([scope, runtimeRepository.repositoryArn, weights.bucketArn, weights.keyArn])
      .apply(([scope, repositoryArn, bucketArn, keyArn]) =>
        agentRuntimePolicy({
          ...scope,
          repositoryArn,
          endpointName: endpointNameSetting,
          bedrockModelIds: bedrockModelIdsSetting,
          // The agent's persisted conversations (SESSION_STORE), beside the weights, under their key.
          sessions: { bucketArn, keyArn, prefix: sessionsPrefix },
          sttProvider,
        }),
      ),
    tags,
  },
  formerFoundationRole(resourceName('agentcore')),
);

export const region = scope.region; // every layer checks that it deploys here
export const weightsBucketName = weights.bucketName;
export const weightsBucketArn = weights.bucketArn;
export const weightsKeyArn = weights.keyArn;
export const weightsPrefix = weightsPrefixSetting;
export { sessionsPrefix };
export const containerRepositoryUrl = containerRepository.repositoryUrl;
export const runtimeRepositoryUrl = runtimeRepository.repositoryUrl;
export const sagemakerRoleArn = sagemakerRole.roleArn;
export const agentRuntimeRoleArn = agentRuntimeRole.roleArn;
export const endpointName = endpointNameSetting;
export const bedrockModelIds = bedrockModelIdsSetting;
export { sttProvider };
