// The deploy role's statements for the account's building blocks, one group per service: the
// service roles every layer creates, the foundation's weights bucket, its key and the image
// repositories, and the log groups of the endpoint and the weight sync. Names scope each one
// (`kokoro-` prefixes); deploy-role.ts puts the groups together.
import { arn, logDeliveryActions, logGroupArn, logStreamArn, type AwsScope, type Statement } from '../shared/iam.ts';

/** The role ARNs the stacks create (IAM ARNs carry no region). */
const kokoroRoles = (scope: AwsScope) => arn(scope, 'iam', 'role/kokoro-*', { region: '' });

/**
 * IAM: each layer creates its service roles with inline policies, and hands them to the service
 * that runs as them (the endpoint, the agent runtime, the sync functions and state machine) — only
 * to those services. The endpoint's autoscaling needs its service-linked role once per account.
 */
export const iamStatements = (scope: AwsScope): Statement[] => [
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
    Resource: kokoroRoles(scope),
  },
  {
    Sid: 'PassRolesToTheirServices',
    Effect: 'Allow',
    Action: ['iam:PassRole'],
    Resource: kokoroRoles(scope),
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
    Resource: arn(
      scope,
      'iam',
      'role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint',
      { region: '' },
    ),
    Condition: { StringEquals: { 'iam:AWSServiceName': 'sagemaker.application-autoscaling.amazonaws.com' } },
  },
];

/**
 * S3: the foundation's weights bucket and its settings (versioning, encryption, lifecycle, public
 * access block, ownership); forceDestroy empties it, every version, before deleting it.
 */
export const s3Statements = (scope: AwsScope): Statement[] => [
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
    Resource: arn(scope, 's3', 'kokoro-*', { region: '', account: '' }),
  },
  {
    Sid: 'EmptyWeightsBucket',
    Effect: 'Allow',
    Action: ['s3:DeleteObject', 's3:DeleteObjectVersion'],
    Resource: arn(scope, 's3', 'kokoro-*/*', { region: '', account: '' }),
  },
];

/**
 * KMS: the bucket's key. CreateKey has no resource type and a key's id is generated, so creating
 * one needs the app tag on the request and managing one needs it on the key; its alias is scoped
 * by name, and listing aliases takes only '*'.
 */
export const kmsStatements = (scope: AwsScope): Statement[] => [
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
    Resource: arn(scope, 'kms', 'key/*'),
    Condition: { StringEquals: { 'aws:ResourceTag/app': 'kokoro' } },
  },
  {
    Sid: 'KeyAliases',
    Effect: 'Allow',
    Action: ['kms:CreateAlias', 'kms:DeleteAlias'],
    Resource: arn(scope, 'kms', 'alias/kokoro-*'),
  },
  { Sid: 'ListAliases', Effect: 'Allow', Action: ['kms:ListAliases'], Resource: '*' },
];

/**
 * ECR: the foundation's two image repositories with their lifecycle policies, and the docker push
 * of the container and agent images into them (the registry login is in the unscoped group).
 */
export const ecrStatements = (scope: AwsScope): Statement[] => [
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
    Resource: arn(scope, 'ecr', 'repository/kokoro-*'),
  },
];

/**
 * CloudWatch Logs: the log groups made ahead of their writers (the endpoint's, the sync functions',
 * the state machine's, the agent runtime's and its OTLP logs' with their stream), with their
 * retention. Describing log groups and setting up a state machine's log delivery take '*' only;
 * so does the agent-runtime layer's optional Transaction Search (its CloudWatch Logs resource
 * policy and X-Ray's trace segment destination).
 */
export const logsStatements = (scope: AwsScope): Statement[] => [
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
      'logs:DescribeLogStreams',
    ],
    Resource: [
      logGroupArn(scope, '/aws/sagemaker/Endpoints/kokoro-*'),
      logGroupArn(scope, '/aws/lambda/kokoro-*'),
      logGroupArn(scope, '/aws/vendedlogs/states/kokoro-*'),
      logGroupArn(scope, '/aws/bedrock-agentcore/runtimes/kokoro_*'),
    ],
  },
  {
    Sid: 'AgentLogStreams',
    Effect: 'Allow',
    Action: ['logs:CreateLogStream', 'logs:DeleteLogStream'],
    Resource: logStreamArn(scope, '/aws/bedrock-agentcore/runtimes/kokoro_*'),
  },
  { Sid: 'LogDelivery', Effect: 'Allow', Action: logDeliveryActions, Resource: '*' },
  {
    Sid: 'TransactionSearch',
    Effect: 'Allow',
    Action: ['logs:DeleteResourcePolicy', 'xray:GetTraceSegmentDestination', 'xray:UpdateTraceSegmentDestination'],
    Resource: '*',
  },
];
