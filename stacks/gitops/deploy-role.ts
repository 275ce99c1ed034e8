// The IAM role Pulumi Deployments assumes (by OIDC) to deploy the four layers: its trust policy and
// its permissions, as typed documents. Scoped by the names the stacks give their resources
// (`kokoro-` prefixes, `kokoro_` for AgentCore runtimes) in one account and region. Print them:
//   node stacks/gitops/deploy-role.ts trust <account> <pulumi-org>
//   node stacks/gitops/deploy-role.ts permissions <account> <region> [partition]
import {
  arn,
  logDeliveryActions,
  logGroupArn,
  policyDocument,
  type AwsScope,
  type PolicyDocument,
} from '../shared/iam.ts';

/** Trust for Pulumi Cloud's OIDC issuer: only deployments of this org's kokoro-* projects. */
export function deployRoleTrustPolicy(account: string, organization: string, partition = 'aws'): PolicyDocument {
  if (!/^\d{12}$/.test(account)) throw new Error(`account must be 12 digits, got '${account}'`);
  if (!/^[\w.-]+$/.test(organization)) throw new Error(`organization '${organization}' has unexpected characters`);
  return policyDocument([
    {
      Sid: 'PulumiDeployments',
      Effect: 'Allow',
      Principal: { Federated: `arn:${partition}:iam::${account}:oidc-provider/api.pulumi.com/oidc` },
      Action: ['sts:AssumeRoleWithWebIdentity'],
      Condition: {
        StringEquals: { 'api.pulumi.com/oidc:aud': organization },
        StringLike: { 'api.pulumi.com/oidc:sub': `pulumi:deploy:org:${organization}:project:kokoro-*:*` },
      },
    },
  ]);
}

/** What `pulumi up` of foundation, model-cache, endpoint and agent-runtime calls. */
export function deployRolePolicy(scope: AwsScope): PolicyDocument {
  if (!/^\d{12}$/.test(scope.account)) throw new Error(`account must be 12 digits, got '${scope.account}'`);
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(scope.region)) throw new Error(`'${scope.region}' is not an AWS region`);
  const a = (service: string, resource: string, parts?: { region?: string; account?: string }) =>
    arn(scope, service, resource, parts);
  const role = a('iam', 'role/kokoro-*', { region: '' });
  const taggedKokoro = { StringEquals: { 'aws:ResourceTag/app': 'kokoro' } };
  return policyDocument([
    {
      Sid: 'Roles',
      Effect: 'Allow',
      Action: [
        'iam:CreateRole',
        'iam:DeleteRole',
        'iam:GetRole',
        'iam:UpdateRole',
        'iam:UpdateAssumeRolePolicy',
        'iam:TagRole',
        'iam:UntagRole',
        'iam:ListRolePolicies',
        'iam:ListAttachedRolePolicies',
        'iam:ListInstanceProfilesForRole',
        'iam:PutRolePolicy',
        'iam:GetRolePolicy',
        'iam:DeleteRolePolicy',
      ],
      Resource: role,
    },
    {
      Sid: 'PassRolesToTheirServices',
      Effect: 'Allow',
      Action: ['iam:PassRole'],
      Resource: role,
      Condition: {
        StringEquals: {
          'iam:PassedToService': [
            'sagemaker.amazonaws.com',
            'bedrock-agentcore.amazonaws.com',
            'lambda.amazonaws.com',
            'states.amazonaws.com',
          ],
        },
      },
    },
    {
      Sid: 'EndpointAutoscalingRole',
      Effect: 'Allow',
      Action: ['iam:CreateServiceLinkedRole'],
      Resource: a(
        'iam',
        'role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint',
        { region: '' },
      ),
      Condition: { StringEquals: { 'iam:AWSServiceName': 'sagemaker.application-autoscaling.amazonaws.com' } },
    },
    {
      Sid: 'WeightsBucket',
      Effect: 'Allow',
      Action: [
        's3:CreateBucket',
        's3:DeleteBucket',
        's3:ListBucket',
        's3:ListBucketVersions',
        's3:GetBucket*',
        's3:PutBucket*',
        's3:DeleteBucketPolicy',
        's3:GetAccelerateConfiguration',
        's3:GetEncryptionConfiguration',
        's3:PutEncryptionConfiguration',
        's3:GetLifecycleConfiguration',
        's3:PutLifecycleConfiguration',
        's3:GetReplicationConfiguration',
      ],
      Resource: a('s3', 'kokoro-*', { region: '', account: '' }),
    },
    {
      // forceDestroy empties the bucket, every version.
      Sid: 'EmptyWeightsBucket',
      Effect: 'Allow',
      Action: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
      Resource: a('s3', 'kokoro-*/*', { region: '', account: '' }),
    },
    {
      Sid: 'CreateKeys',
      Effect: 'Allow',
      Action: ['kms:CreateKey'],
      Resource: '*',
      Condition: { StringEquals: { 'aws:RequestTag/app': 'kokoro' } },
    },
    {
      Sid: 'ManageKokoroKeys',
      Effect: 'Allow',
      Action: [
        'kms:DescribeKey',
        'kms:GetKeyPolicy',
        'kms:GetKeyRotationStatus',
        'kms:EnableKeyRotation',
        'kms:ListResourceTags',
        'kms:TagResource',
        'kms:UntagResource',
        'kms:ScheduleKeyDeletion',
        'kms:CreateAlias',
        'kms:DeleteAlias',
      ],
      Resource: a('kms', 'key/*'),
      Condition: taggedKokoro,
    },
    {
      Sid: 'KeyAliases',
      Effect: 'Allow',
      Action: ['kms:CreateAlias', 'kms:DeleteAlias'],
      Resource: a('kms', 'alias/kokoro-*'),
    },
    { Sid: 'ListAliases', Effect: 'Allow', Action: ['kms:ListAliases'], Resource: '*' },
    {
      Sid: 'Repositories',
      Effect: 'Allow',
      Action: [
        'ecr:CreateRepository',
        'ecr:DeleteRepository',
        'ecr:DescribeRepositories',
        'ecr:ListTagsForResource',
        'ecr:TagResource',
        'ecr:UntagResource',
        'ecr:PutLifecyclePolicy',
        'ecr:GetLifecyclePolicy',
        'ecr:DeleteLifecyclePolicy',
        'ecr:PutImageScanningConfiguration',
        'ecr:PutImageTagMutability',
        'ecr:DescribeImages',
        'ecr:BatchDeleteImage',
        // docker push of the two images
        'ecr:BatchCheckLayerAvailability',
        'ecr:InitiateLayerUpload',
        'ecr:UploadLayerPart',
        'ecr:CompleteLayerUpload',
        'ecr:PutImage',
        'ecr:BatchGetImage',
      ],
      Resource: a('ecr', 'repository/kokoro-*'),
    },
    {
      Sid: 'LogGroups',
      Effect: 'Allow',
      Action: [
        'logs:CreateLogGroup',
        'logs:DeleteLogGroup',
        'logs:PutRetentionPolicy',
        'logs:DeleteRetentionPolicy',
        'logs:TagResource',
        'logs:UntagResource',
        'logs:ListTagsForResource',
        'logs:ListTagsLogGroup',
      ],
      Resource: [
        logGroupArn(scope, '/aws/sagemaker/Endpoints/kokoro-*'),
        logGroupArn(scope, '/aws/lambda/kokoro-*'),
        logGroupArn(scope, '/aws/vendedlogs/states/kokoro-*'),
      ],
    },
    {
      // Describing log groups and setting up a state machine's log delivery take '*' only.
      Sid: 'LogDelivery',
      Effect: 'Allow',
      Action: logDeliveryActions,
      Resource: '*',
    },
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
      Resource: a('lambda', 'function:kokoro-*'),
    },
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
      Resource: a('states', 'stateMachine:kokoro-*'),
    },
    {
      // The sync-on-up resource waits for its execution.
      Sid: 'WatchSync',
      Effect: 'Allow',
      Action: ['states:DescribeExecution'],
      Resource: a('states', 'execution:kokoro-*:*'),
    },
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
      Resource: a('secretsmanager', 'secret:kokoro-*'),
    },
    // One statement per resource type: each action's resource must be one of its own types.
    {
      Sid: 'EndpointModels',
      Effect: 'Allow',
      Action: ['sagemaker:CreateModel', 'sagemaker:DeleteModel', 'sagemaker:DescribeModel'],
      Resource: a('sagemaker', 'model/kokoro-*'),
    },
    {
      // CreateEndpoint and UpdateEndpoint name the configuration they deploy.
      Sid: 'EndpointConfigs',
      Effect: 'Allow',
      Action: [
        'sagemaker:CreateEndpointConfig',
        'sagemaker:DeleteEndpointConfig',
        'sagemaker:DescribeEndpointConfig',
        'sagemaker:CreateEndpoint',
        'sagemaker:UpdateEndpoint',
      ],
      Resource: a('sagemaker', 'endpoint-config/kokoro-*'),
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
      Resource: a('sagemaker', 'endpoint/kokoro-*'),
    },
    {
      Sid: 'EndpointTags',
      Effect: 'Allow',
      Action: ['sagemaker:AddTags', 'sagemaker:DeleteTags', 'sagemaker:ListTags'],
      Resource: [
        a('sagemaker', 'model/kokoro-*'),
        a('sagemaker', 'endpoint-config/kokoro-*'),
        a('sagemaker', 'endpoint/kokoro-*'),
      ],
    },
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
      Resource: a('application-autoscaling', 'scalable-target/*'),
    },
    {
      Sid: 'DescribeScaling',
      Effect: 'Allow',
      Action: ['application-autoscaling:DescribeScalableTargets', 'application-autoscaling:DescribeScalingPolicies'],
      Resource: '*',
    },
    {
      Sid: 'Alarms',
      Effect: 'Allow',
      Action: [
        'cloudwatch:PutMetricAlarm',
        'cloudwatch:DeleteAlarms',
        'cloudwatch:DescribeAlarms',
        'cloudwatch:TagResource',
        'cloudwatch:UntagResource',
        'cloudwatch:ListTagsForResource',
      ],
      Resource: a('cloudwatch', 'alarm:kokoro-*'),
    },
    {
      Sid: 'Dashboard',
      Effect: 'Allow',
      Action: ['cloudwatch:PutDashboard', 'cloudwatch:GetDashboard', 'cloudwatch:DeleteDashboards'],
      Resource: a('cloudwatch', 'dashboard/kokoro-*', { region: '' }),
    },
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
      Resource: a('bedrock-agentcore', 'runtime/kokoro_*'),
    },
    {
      Sid: 'AgentRuntimeEndpoint',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:GetAgentRuntimeEndpoint',
        'bedrock-agentcore:UpdateAgentRuntimeEndpoint',
        'bedrock-agentcore:DeleteAgentRuntimeEndpoint',
      ],
      Resource: a('bedrock-agentcore', 'runtime/kokoro_*/runtime-endpoint/*'),
    },
    {
      Sid: 'AgentRuntimeTags',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:TagResource',
        'bedrock-agentcore:UntagResource',
        'bedrock-agentcore:ListTagsForResource',
      ],
      Resource: [
        a('bedrock-agentcore', 'runtime/kokoro_*'),
        a('bedrock-agentcore', 'runtime/kokoro_*/runtime-endpoint/*'),
      ],
    },
    {
      // AgentCore gives each runtime a workload identity in the default directory.
      Sid: 'AgentWorkloadIdentity',
      Effect: 'Allow',
      Action: [
        'bedrock-agentcore:CreateWorkloadIdentity',
        'bedrock-agentcore:GetWorkloadIdentity',
        'bedrock-agentcore:DeleteWorkloadIdentity',
      ],
      Resource: [
        a('bedrock-agentcore', 'workload-identity-directory/default'),
        a('bedrock-agentcore', 'workload-identity-directory/default/workload-identity/kokoro_*'),
      ],
    },
    {
      Sid: 'ListAgentRuntimes',
      Effect: 'Allow',
      Action: ['bedrock-agentcore:ListAgentRuntimeVersions', 'bedrock-agentcore:ListAgentRuntimeEndpoints'],
      Resource: '*',
    },
    {
      Sid: 'Unscoped',
      Effect: 'Allow',
      Action: ['ecr:GetAuthorizationToken', 'sts:GetCallerIdentity'],
      Resource: '*',
    },
  ]);
}

if (import.meta.main) {
  const [kind, account = '', third = '', partition = 'aws'] = process.argv.slice(2);
  if (!(kind === 'trust' || kind === 'permissions') || account === '' || third === '') {
    console.error('usage: deploy-role.ts trust <account> <pulumi-org> | permissions <account> <region> [partition]');
    process.exit(2);
  }
  const doc =
    kind === 'trust'
      ? deployRoleTrustPolicy(account, third, partition)
      : deployRolePolicy({ partition, region: third, account });
  console.log(JSON.stringify(doc, null, 2));
}
