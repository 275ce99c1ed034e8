// The stack outputs each layer exports and the ones each consumer reads: the one contract between
// the Pulumi projects. Producers export exactly these names; stacks/contract.test.ts fails when a
// producer renames an output that a consumer reads.

/**
 * foundation: its region, weights bucket and key, image repositories, execution roles, the
 * endpoint's name, the models the agent may invoke and the speech-to-text its role allows.
 */
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
  'sttProvider',
] as const;

/**
 * The agent's speech-to-text (its STT_PROVIDER), as the foundation's `sttProvider` output and the
 * agent-runtime layer's config name it: Amazon Transcribe streaming, an OpenAI-compatible
 * transcription server, or none (typed turns only).
 */
export const STT_PROVIDERS = ['transcribe', 'openai', 'none'] as const;
export type SttProvider = (typeof STT_PROVIDERS)[number];

/**
 * model-cache: where the pinned weights lie (an S3 prefix ending in '/'), how they got there, and
 * which files (the include globs the sync took).
 */
export const modelCacheOutputs = ['modelDataUri', 'commit', 'stateMachineArn', 'manifestKey', 'include'] as const;

/**
 * endpoint: the SageMaker endpoint the agent runtime calls, and the SNS topic its alarms notify
 * ('' for none), which the agent runtime's alarms reuse.
 */
export const endpointOutputs = [
  'endpointName',
  'endpointArn',
  'endpointConfigName',
  'variantName',
  'imageUri',
  'alarmTopicArn',
] as const;

/**
 * web: where customers open the page (the bucket and distribution that serve it), how the page
 * reaches the runtime (`direct` or through the distribution, `same-origin`), and the Cognito user
 * pool and app client they sign in with (the agent runtime's JWT authorizer accepts its tokens).
 */
export const webOutputs = [
  'region',
  'pageUrl',
  'pageBucketName',
  'distributionId',
  'distributionDomainName',
  'runtimeAccess',
  'userPoolId',
  'userPoolClientId',
  'jwtDiscoveryUrl',
  'authority',
  'loginDomain',
  'loginDomainAliasTarget',
  'redirectUri',
  'postLogoutRedirectUri',
  'scope',
  'createUserCommand',
] as const;

/**
 * agent-runtime: how to call the deployed agent: its ARN and endpoint (qualifier), and how callers
 * authenticate (`inboundAuth`: `iam`, `web` for the web layer's user pool, `jwt` for another issuer).
 */
export const agentRuntimeOutputs = [
  'agentRuntimeArn',
  'agentRuntimeId',
  'agentRuntimeEndpointArn',
  'qualifier',
  'inboundAuth',
  'invokeUrl',
  'imageUri',
  'cliCommand',
] as const;

/** site: the page as uploaded (its config.json, the url paths), and the invalidation that followed. */
export const siteOutputs = ['pageUrl', 'pageConfig', 'uploadedPaths', 'invalidationId'] as const;

export type FoundationOutput = (typeof foundationOutputs)[number];
export type ModelCacheOutput = (typeof modelCacheOutputs)[number];
export type EndpointOutput = (typeof endpointOutputs)[number];
export type WebOutput = (typeof webOutputs)[number];
export type AgentRuntimeOutput = (typeof agentRuntimeOutputs)[number];
export type SiteOutput = (typeof siteOutputs)[number];
