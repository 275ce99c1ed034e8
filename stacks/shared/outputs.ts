// The stack outputs each layer exports and the ones each consumer reads: the one contract between
// the Pulumi projects. Producers export exactly these names; stacks/contract.test.ts fails when a
// producer renames an output that a consumer reads.

/** foundation: its region, weights bucket and key, image repositories, execution roles, the endpoint's name. */
export const foundationOutputs = [
  'region',
  'weightsBucketName',
  'weightsBucketArn',
  'weightsKeyArn',
  'weightsPrefix',
  'sessionsPrefix',
  'containerRepositoryUrl',
  'runtimeRepositoryUrl',
  'sagemakerRoleArn',
  'agentRuntimeRoleArn',
  'endpointName',
  'bedrockModelIds',
] as const;

/**
 * model-cache: where the pinned weights lie (an S3 prefix ending in '/'), how they got there, and
 * which files (the include globs the sync took).
 */
export const modelCacheOutputs = ['modelDataUri', 'commit', 'stateMachineArn', 'manifestKey', 'include'] as const;

/** endpoint: the SageMaker endpoint the agent runtime calls. */
export const endpointOutputs = [
  'endpointName',
  'endpointArn',
  'endpointConfigName',
  'variantName',
  'imageUri',
] as const;

/** agent-runtime: how to call the deployed agent. */
export const agentRuntimeOutputs = [
  'agentRuntimeArn',
  'agentRuntimeId',
  'agentRuntimeEndpointArn',
  'invokeUrl',
  'imageUri',
  'cliCommand',
] as const;

export type FoundationOutput = (typeof foundationOutputs)[number];
export type ModelCacheOutput = (typeof modelCacheOutputs)[number];
export type EndpointOutput = (typeof endpointOutputs)[number];
export type AgentRuntimeOutput = (typeof agentRuntimeOutputs)[number];
