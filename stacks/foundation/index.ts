// foundation: the weights bucket and its key, the two image repositories, the SageMaker and
// AgentCore execution roles, and the endpoint's name (fixed here so the agent role can name its ARN).
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { defaultTags, intSetting, resourceName } from '../shared/index.ts';
import { ImageRepository } from './imageRepository.ts';
import { agentRuntimePolicy, sagemakerPolicy, trustPolicy } from './policies.ts';
import { ServiceRole } from './serviceRole.ts';
import { WeightsBucket } from './weightsBucket.ts';

const config = new pulumi.Config();
const weightsPrefixSetting = config.get('weightsPrefix') ?? 'models/';
const endpointNameSetting = config.get('endpointName') ?? resourceName('tts');
const bedrockModelIdsSetting = config.getObject<string[]>('bedrockModelIds') ?? [
  'us.anthropic.claude-haiku-4-5-20251001-v1:0',
];
const forceDestroy = config.getBoolean('forceDestroy') ?? false;
const keepImages = intSetting(config, 'keepImages', 10, { min: 1, max: 1000 });
const logRetentionDays = intSetting(config, 'logRetentionDays', 30, { min: 1, max: 3653 });
if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(endpointNameSetting)) {
  throw new Error(
    `config 'endpointName' must be 1-63 lower-case letters, digits or dashes, got '${endpointNameSetting}'`,
  );
}
const tags = defaultTags({ layer: 'foundation' });

const partition = aws.getPartitionOutput().partition;
const region = aws.getRegionOutput().region;
const account = aws.getCallerIdentityOutput().accountId;

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

const sagemakerRole = new ServiceRole(resourceName('sagemaker'), {
  description: 'SageMaker execution role for the Kokoro TTS endpoint',
  trustPolicy: pulumi
    .all([partition, region, account])
    .apply(([partition, region, account]) => trustPolicy('sagemaker.amazonaws.com', { partition, region, account })),
  policy: pulumi
    .all([partition, region, account, weights.bucketArn, weights.keyArn, containerRepository.repositoryArn])
    .apply(([partition, region, account, bucketArn, keyArn, repositoryArn]) =>
      sagemakerPolicy({
        partition,
        region,
        account,
        bucketArn,
        keyArn,
        repositoryArn,
        weightsPrefix: weightsPrefixSetting,
        endpointName: endpointNameSetting,
      }),
    ),
  tags,
});

const agentRuntimeRole = new ServiceRole(resourceName('agentcore'), {
  description: 'AgentCore runtime execution role for the Kokoro voice agent',
  trustPolicy: pulumi
    .all([partition, region, account])
    .apply(([partition, region, account]) =>
      trustPolicy(
        'bedrock-agentcore.amazonaws.com',
        { partition, region, account },
        `arn:${partition}:bedrock-agentcore:${region}:${account}:*`,
      ),
    ),
  policy: pulumi
    .all([partition, region, account, runtimeRepository.repositoryArn])
    .apply(([partition, region, account, repositoryArn]) =>
      agentRuntimePolicy({
        partition,
        region,
        account,
        repositoryArn,
        endpointName: endpointNameSetting,
        bedrockModelIds: bedrockModelIdsSetting,
      }),
    ),
  tags,
});

export const weightsBucketName = weights.bucketName;
export const weightsBucketArn = weights.bucketArn;
export const weightsKeyArn = weights.keyArn;
export const weightsPrefix = weightsPrefixSetting;
export const containerRepositoryUrl = containerRepository.repositoryUrl;
export const runtimeRepositoryUrl = runtimeRepository.repositoryUrl;
export const sagemakerRoleArn = sagemakerRole.roleArn;
export const agentRuntimeRoleArn = agentRuntimeRole.roleArn;
export const endpointName = endpointNameSetting;
export const bedrockModelIds = bedrockModelIdsSetting;
