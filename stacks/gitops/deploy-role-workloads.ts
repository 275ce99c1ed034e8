// The deploy role's statements for what runs, one group per service: the model cache's weight sync
// (Lambda functions, a Step Functions state machine, the hub token secret), the TTS endpoint
// (SageMaker, its autoscaling, its alarms and dashboard) and the agent (AgentCore). Names scope
// each one (`kokoro-`, `kokoro_` for AgentCore runtimes); deploy-role.ts puts the groups together.
import { arn, type AwsScope, type Statement } from '../shared/iam.ts';

/** Lambda: the model cache's sync functions (resolve, copy, manifest). */
export const lambdaStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'SyncFunctions',
    Effect: 'Allow',
    Action: [
      'lambda:CreateFunction',
      'lambda:DeleteFunction',
      'lambda:GetFunction',
      'lambda:GetFunctionConfiguration',
      'lambda:GetFunctionCodeSigningConfig',
      'lambda:UpdateFunctionCode',
      'lambda:UpdateFunctionConfiguration',
      'lambda:ListVersionsByFunction',
      'lambda:TagResource',
      'lambda:UntagResource',
      'lambda:ListTags',
    ],
    Resource: arn(scope, 'lambda', 'function:kokoro-*'),
  },
];

/**
 * Step Functions: the sync state machine, which the sync-on-up resource starts and then waits for
 * (an execution's ARN is its own resource type).
 */
export const stepFunctionsStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'SyncStateMachine',
    Effect: 'Allow',
    Action: [
      'states:CreateStateMachine',
      'states:DeleteStateMachine',
      'states:DescribeStateMachine',
      'states:UpdateStateMachine',
      'states:TagResource',
      'states:UntagResource',
      'states:ListTagsForResource',
      'states:StartExecution',
    ],
    Resource: arn(scope, 'states', 'stateMachine:kokoro-*'),
  },
  {
    Sid: 'WatchSync',
    Effect: 'Allow',
    Action: ['states:DescribeExecution'],
    Resource: arn(scope, 'states', 'execution:kokoro-*:*'),
  },
];

/** Secrets Manager: the model cache keeps the hub token in a secret it writes on each `up`. */
export const secretsManagerStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'HubTokenSecret',
    Effect: 'Allow',
    Action: [
      'secretsmanager:CreateSecret',
      'secretsmanager:DeleteSecret',
      'secretsmanager:DescribeSecret',
      'secretsmanager:PutSecretValue',
      'secretsmanager:GetSecretValue',
      'secretsmanager:GetResourcePolicy',
      'secretsmanager:TagResource',
      'secretsmanager:UntagResource',
    ],
    Resource: arn(scope, 'secretsmanager', 'secret:kokoro-*'),
  },
];

/**
 * SageMaker: the endpoint's model, configuration and endpoint, one statement per resource type
 * (each action's resource must be one of its own types): CreateEndpoint and UpdateEndpoint also
 * name the configuration they deploy, so they stand under both.
 */
export function sageMakerStatements(scope: AwsScope): Statement[] {
  const model = arn(scope, 'sagemaker', 'model/kokoro-*');
  const config = arn(scope, 'sagemaker', 'endpoint-config/kokoro-*');
  const endpoint = arn(scope, 'sagemaker', 'endpoint/kokoro-*');
  return [
    {
      Sid: 'EndpointModels',
      Effect: 'Allow',
      Action: ['sagemaker:CreateModel', 'sagemaker:DeleteModel', 'sagemaker:DescribeModel'],
      Resource: model,
    },
    {
      Sid: 'EndpointConfigs',
      Effect: 'Allow',
      Action: [
        'sagemaker:CreateEndpointConfig',
        'sagemaker:DeleteEndpointConfig',
        'sagemaker:DescribeEndpointConfig',
        'sagemaker:CreateEndpoint',
        'sagemaker:UpdateEndpoint',
      ],
      Resource: config,
    },
    {
      Sid: 'Endpoints',
      Effect: 'Allow',
      Action: [
        'sagemaker:CreateEndpoint',
        'sagemaker:UpdateEndpoint',
        'sagemaker:DeleteEndpoint',
        'sagemaker:DescribeEndpoint',
      ],
      Resource: endpoint,
    },
    {
      Sid: 'EndpointTags',
      Effect: 'Allow',
      Action: ['sagemaker:AddTags', 'sagemaker:DeleteTags', 'sagemaker:ListTags'],
      Resource: [model, config, endpoint],
    },
  ];
}

/**
 * Application Auto Scaling: the endpoint variant's scalable target and its policies. A target's
 * ARN holds a generated id, so it is scoped to scalable targets only; describing takes '*' only.
 */
export const autoscalingStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'EndpointScaling',
    Effect: 'Allow',
    Action: [
      'application-autoscaling:RegisterScalableTarget',
      'application-autoscaling:DeregisterScalableTarget',
      'application-autoscaling:PutScalingPolicy',
      'application-autoscaling:DeleteScalingPolicy',
      'application-autoscaling:TagResource',
      'application-autoscaling:UntagResource',
      'application-autoscaling:ListTagsForResource',
    ],
    Resource: arn(scope, 'application-autoscaling', 'scalable-target/*'),
  },
  {
    Sid: 'DescribeScaling',
    Effect: 'Allow',
    Action: ['application-autoscaling:DescribeScalableTargets', 'application-autoscaling:DescribeScalingPolicies'],
    Resource: '*',
  },
];

/** CloudWatch: the endpoint's and the agent's alarms (a composite one among them) and dashboards (global: no region). */
export const cloudWatchStatements = (scope: AwsScope): Statement[] => [
  {
    Sid: 'Alarms',
    Effect: 'Allow',
    Action: [
      'cloudwatch:PutMetricAlarm',
      'cloudwatch:PutCompositeAlarm',
      'cloudwatch:DeleteAlarms',
      'cloudwatch:DescribeAlarms',
      'cloudwatch:TagResource',
      'cloudwatch:UntagResource',
      'cloudwatch:ListTagsForResource',
    ],
    Resource: arn(scope, 'cloudwatch', 'alarm:kokoro-*'),
  },
  {
    Sid: 'Dashboard',
    Effect: 'Allow',
    Action: ['cloudwatch:PutDashboard', 'cloudwatch:GetDashboard', 'cloudwatch:DeleteDashboards'],
    Resource: arn(scope, 'cloudwatch', 'dashboard/kokoro-*', { region: '' }),
  },
];

/**
 * Bedrock AgentCore: the agent runtime and its endpoint, scoped by the `kokoro_` name (AgentCore
 * names take no '-'); CreateAgentRuntime and the two lists have no resource type, so '*'. AgentCore
 * gives each runtime a workload identity in the default directory.
 */
export function agentCoreStatements(scope: AwsScope): Statement[] {
  const runtime = arn(scope, 'bedrock-agentcore', 'runtime/kokoro_*');
  const runtimeEndpoint = arn(scope, 'bedrock-agentcore', 'runtime/kokoro_*/runtime-endpoint/*');
  return [
    { Sid: 'CreateAgentRuntime', Effect: 'Allow', Action: ['bedrock-agentcore:CreateAgentRuntime'], Resource: '*' },
    {
      Sid: 'AgentRuntime',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:GetAgentRuntime',
        'bedrock-agentcore:UpdateAgentRuntime',
        'bedrock-agentcore:DeleteAgentRuntime',
        'bedrock-agentcore:CreateAgentRuntimeEndpoint',
      ],
      Resource: runtime,
    },
    {
      Sid: 'AgentRuntimeEndpoint',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:GetAgentRuntimeEndpoint',
        'bedrock-agentcore:UpdateAgentRuntimeEndpoint',
        'bedrock-agentcore:DeleteAgentRuntimeEndpoint',
      ],
      Resource: runtimeEndpoint,
    },
    {
      Sid: 'AgentRuntimeTags',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:TagResource',
        'bedrock-agentcore:UntagResource',
        'bedrock-agentcore:ListTagsForResource',
      ],
      Resource: [runtime, runtimeEndpoint],
    },
    {
      Sid: 'AgentWorkloadIdentity',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:CreateWorkloadIdentity',
        'bedrock-agentcore:GetWorkloadIdentity',
        'bedrock-agentcore:DeleteWorkloadIdentity',
      ],
      Resource: [
        arn(scope, 'bedrock-agentcore', 'workload-identity-directory/default'),
        arn(scope, 'bedrock-agentcore', 'workload-identity-directory/default/workload-identity/kokoro_*'),
      ],
    },
    {
      Sid: 'ListAgentRuntimes',
      Effect: 'Allow',
      Action: ['bedrock-agentcore:ListAgentRuntimeVersions', 'bedrock-agentcore:ListAgentRuntimeEndpoints'],
      Resource: '*',
    },
  ];
}
