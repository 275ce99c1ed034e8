// IAM policy documents for the SageMaker and AgentCore execution roles, as plain functions so the
// exact actions and resources are unit-tested. Every statement names ARNs; `*` appears only where
// the action has no resource-level permissions (ecr:GetAuthorizationToken, X-Ray, PutMetricData,
// the last narrowed by a namespace condition, logs:DescribeLogGroups,
// transcribe:StartStreamTranscription). Every action, condition key
// and ARN is checked against AWS's service authorization reference in the stack tests. Document types and ARN builders: ../shared/iam.ts.
import {
  arn,
  logGroupArn,
  logStreamArn,
  policyDocument,
  type AwsScope,
  type PolicyDocument,
  type Statement,
} from '../shared/iam.ts';
import type { SttProvider } from '../shared/outputs.ts';

/** Pulling an image: the repository's layers, and the registry login (which takes '*' only). */
const imagePull = (repositoryArn: string): Statement[] => [
  {
    Sid: 'PullImage',
    Effect: 'Allow',
    Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
    Resource: repositoryArn,
  },
  { Sid: 'EcrLogin', Effect: 'Allow', Action: ['ecr:GetAuthorizationToken'], Resource: '*' },
];

export interface SageMakerPolicyArgs extends AwsScope {
  bucketArn: string;
  /** Key prefix of the weights, ending in '/'. */
  weightsPrefix: string;
  keyArn: string;
  repositoryArn: string;
  endpointName: string;
}

/** Read the weights prefix, pull the container image, write the endpoint's logs and metrics. */
export function sagemakerPolicy(a: SageMakerPolicyArgs): PolicyDocument {
  if (!a.weightsPrefix.endsWith('/')) throw new Error(`weightsPrefix '${a.weightsPrefix}' must end in '/'`);
  const logGroup = `/aws/sagemaker/Endpoints/${a.endpointName}`;
  return policyDocument([
    { Sid: 'ReadWeights', Effect: 'Allow', Action: ['s3:GetObject'], Resource: `${a.bucketArn}/${a.weightsPrefix}*` },
    {
      Sid: 'ListWeights',
      Effect: 'Allow',
      Action: ['s3:ListBucket'],
      Resource: a.bucketArn,
      Condition: { StringLike: { 's3:prefix': `${a.weightsPrefix}*` } },
    },
    {
      Sid: 'DecryptWeights',
      Effect: 'Allow',
      Action: ['kms:Decrypt'],
      Resource: a.keyArn,
      Condition: { StringEquals: { 'kms:ViaService': `s3.${a.region}.amazonaws.com` } },
    },
    ...imagePull(a.repositoryArn),
    // Each logs action takes one resource type: the group for these two, its streams for the next two.
    {
      Sid: 'EndpointLogGroup',
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup', 'logs:DescribeLogStreams'],
      Resource: logGroupArn(a, logGroup),
    },
    {
      Sid: 'WriteLogs',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: logStreamArn(a, logGroup),
    },
    {
      Sid: 'WriteMetrics',
      Effect: 'Allow',
      Action: ['cloudwatch:PutMetricData'],
      Resource: '*',
      Condition: { StringEquals: { 'cloudwatch:namespace': ['/aws/sagemaker/Endpoints', 'AWS/SageMaker'] } },
    },
  ]);
}

/** Cross-region inference profiles carry a geography prefix: `us.anthropic...`, `global.amazon...`. */
const profilePrefix = /^(global|us|us-gov|eu|apac|jp|au|ca)\./;

/**
 * The ARNs bedrock:InvokeModel needs for each model id. An inference profile needs its own ARN and
 * the foundation model's in every region the profile may route to (hence the region wildcard).
 */
export function bedrockModelArns(modelIds: readonly string[], scope: AwsScope): string[] {
  if (modelIds.length === 0) throw new Error('bedrockModelIds must name at least one model');
  return modelIds.flatMap((id) => {
    if (!/^[a-z0-9.:-]+$/.test(id)) throw new Error(`bedrock model id '${id}' has unexpected characters`);
    const match = profilePrefix.exec(id);
    if (match === null) return [arn(scope, 'bedrock', `foundation-model/${id}`, { account: '' })];
    const baseId = id.slice(match[0].length);
    return [
      arn(scope, 'bedrock', `inference-profile/${id}`),
      arn(scope, 'bedrock', `foundation-model/${baseId}`, { region: '*', account: '' }),
    ];
  });
}

export interface AgentRuntimePolicyArgs extends AwsScope {
  repositoryArn: string;
  endpointName: string;
  bedrockModelIds: readonly string[];
  /** Persisted conversations (the agent's SESSION_STORE=s3://bucket/prefix): the foundation bucket,
   *  its key prefix ending in '/', and the bucket's KMS key. Absent: no session permissions. */
  sessions?: { bucketArn: string; prefix: string; keyArn: string };
  /** The agent's speech-to-text (STT_PROVIDER): only `transcribe` needs a permission. Default none. */
  sttProvider?: SttProvider;
}

/**
 * Amazon Transcribe streaming over HTTP/2, the one call the agent's `transcribe` provider makes
 * (@aws-sdk/client-transcribe-streaming's StartStreamTranscriptionCommand); the action has no
 * resource types, so '*' (docs/design/deployment.md#iam). Not the WebSocket variant: unused.
 */
export const transcribeStatement: Statement = {
  Sid: 'TranscribeStreaming',
  Effect: 'Allow',
  Action: ['transcribe:StartStreamTranscription'],
  Resource: '*',
};

/**
 * Read and write the session snapshots under one prefix, list it (so that a session not stored yet
 * reads as 404 rather than 403), and use the bucket's KMS key through S3 only: Decrypt to read,
 * GenerateDataKey to write (SSE-KMS, with an S3 bucket key). No delete: the agent never deletes.
 */
export function sessionStatements(s: NonNullable<AgentRuntimePolicyArgs['sessions']>, region: string): Statement[] {
  if (!s.prefix.endsWith('/') || s.prefix === '/') throw new Error(`sessions prefix '${s.prefix}' must end in '/'`);
  return [
    {
      Sid: 'SessionObjects',
      Effect: 'Allow',
      Action: ['s3:GetObject', 's3:PutObject'],
      Resource: `${s.bucketArn}/${s.prefix}*`,
    },
    {
      Sid: 'ListSessions',
      Effect: 'Allow',
      Action: ['s3:ListBucket'],
      Resource: s.bucketArn,
      Condition: { StringLike: { 's3:prefix': `${s.prefix}*` } },
    },
    {
      Sid: 'SessionKey',
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
      Resource: s.keyArn,
      Condition: { StringEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } },
    },
  ];
}

/** Pull the runtime image, log, trace, get workload tokens, call the configured models and endpoint. */
export function agentRuntimePolicy(a: AgentRuntimePolicyArgs): PolicyDocument {
  const runtimeLogs = '/aws/bedrock-agentcore/runtimes/*';
  const directory = arn(a, 'bedrock-agentcore', 'workload-identity-directory/default');
  return policyDocument([
    ...imagePull(a.repositoryArn),
    {
      Sid: 'RuntimeLogGroups',
      Effect: 'Allow',
      Action: ['logs:CreateLogGroup', 'logs:DescribeLogStreams'],
      Resource: logGroupArn(a, runtimeLogs),
    },
    // DescribeLogGroups has no resource-level permissions: '*' or nothing.
    { Sid: 'DescribeLogGroups', Effect: 'Allow', Action: ['logs:DescribeLogGroups'], Resource: '*' },
    {
      Sid: 'RuntimeLogStreams',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: logStreamArn(a, runtimeLogs),
    },
    // Spans: X-Ray's OTLP endpoint (PutSpans: "upload OpenTelemetry spans") and segment documents;
    // all four take '*' only (docs/design/observability.md, In AWS).
    {
      Sid: 'Tracing',
      Effect: 'Allow',
      Action: [
        'xray:GetSamplingRules',
        'xray:GetSamplingTargets',
        'xray:PutSpans',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ],
      Resource: '*',
    },
    {
      Sid: 'WriteMetrics',
      Effect: 'Allow',
      Action: ['cloudwatch:PutMetricData'],
      Resource: '*',
      Condition: { StringEquals: { 'cloudwatch:namespace': 'bedrock-agentcore' } },
    },
    {
      Sid: 'WorkloadIdentity',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:GetWorkloadAccessToken',
        'bedrock-agentcore:GetWorkloadAccessTokenForJWT',
        'bedrock-agentcore:GetWorkloadAccessTokenForUserId',
      ],
      Resource: [directory, `${directory}/workload-identity/*`],
    },
    {
      Sid: 'InvokeModels',
      Effect: 'Allow',
      Action: ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'],
      Resource: bedrockModelArns(a.bedrockModelIds, a),
    },
    {
      Sid: 'InvokeEndpoint',
      Effect: 'Allow',
      // InvokeEndpoint also authorises InvokeEndpointWithBidirectionalStream (which has no action of its own).
      Action: ['sagemaker:InvokeEndpoint', 'sagemaker:InvokeEndpointWithResponseStream'],
      Resource: arn(a, 'sagemaker', `endpoint/${a.endpointName}`),
    },
    ...(a.sessions ? sessionStatements(a.sessions, a.region) : []),
    ...(a.sttProvider === 'transcribe' ? [transcribeStatement] : []),
  ]);
}
