// CrossGuard policies for IAM, ECR, SageMaker instance types, tagging and log retention.
import type { ResourceValidationPolicy } from '@pulumi/policy';
import { iamStatements, unscopedSensitiveActions, wildcardActionStatements } from './iam-documents.ts';

export const iamNoWildcardActions: ResourceValidationPolicy = {
  name: 'iam-no-wildcard-actions',
  description: "No IAM statement may allow '*' or 'service:*' actions, or use NotAction with Allow.",
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    for (const s of wildcardActionStatements(iamStatements(args.type, args.props))) {
      report(
        `statement '${s.Sid ?? '?'}' allows wildcard actions (${JSON.stringify(s.Action ?? { NotAction: s.NotAction })})`,
      );
    }
  },
};

export const iamNoWildcardResourceOnSensitiveActions: ResourceValidationPolicy = {
  name: 'iam-no-wildcard-resource-on-sensitive-actions',
  description: "Actions that support resource-level permissions must name ARNs, not '*'.",
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    const actions = unscopedSensitiveActions(iamStatements(args.type, args.props));
    if (actions.length > 0) report(`'*' resource for actions that can be scoped: ${actions.join(', ')}`);
  },
};

export const ecrScanOnPush: ResourceValidationPolicy = {
  name: 'ecr-scan-on-push',
  description: 'ECR repositories scan images on push.',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:ecr/repository:Repository') return;
    if (args.props.imageScanningConfiguration?.scanOnPush !== true) report('repository does not scan images on push');
  },
};

/** GPU and CPU types suited to Kokoro; override with the policy's `approvedInstanceTypes` config. */
export const defaultApprovedInstanceTypes = [
  'ml.g5.xlarge',
  'ml.g5.2xlarge',
  'ml.g6.xlarge',
  'ml.g6.2xlarge',
  'ml.g6e.xlarge',
  'ml.g4dn.xlarge',
  'ml.inf2.xlarge',
  'ml.c7i.xlarge',
  'ml.c7i.2xlarge',
  'ml.m7i.xlarge',
];

export const sagemakerApprovedInstanceTypes: ResourceValidationPolicy = {
  name: 'sagemaker-approved-instance-types',
  description: 'SageMaker endpoint variants run on approved instance types only.',
  enforcementLevel: 'mandatory',
  configSchema: {
    properties: {
      approvedInstanceTypes: { type: 'array', items: { type: 'string' }, default: defaultApprovedInstanceTypes },
    },
  },
  validateResource: (args, report) => {
    if (args.type !== 'aws:sagemaker/endpointConfiguration:EndpointConfiguration') return;
    const approved =
      args.getConfig<{ approvedInstanceTypes?: string[] }>().approvedInstanceTypes ?? defaultApprovedInstanceTypes;
    for (const variant of args.props.productionVariants ?? []) {
      const type = variant?.instanceType;
      if (typeof type !== 'string' || !approved.includes(type)) {
        report(
          `variant '${variant?.variantName ?? '?'}' uses instance type '${type ?? 'none (serverless)'}', not one of ${approved.join(', ')}`,
        );
      }
    }
  },
};

/** AWS resource types that take tags (those this project creates or is likely to add). */
export const taggableTypes = new Set([
  'aws:s3/bucket:Bucket',
  'aws:kms/key:Key',
  'aws:ecr/repository:Repository',
  'aws:iam/role:Role',
  'aws:iam/policy:Policy',
  'aws:cloudwatch/logGroup:LogGroup',
  'aws:cloudwatch/metricAlarm:MetricAlarm',
  'aws:cloudwatch/compositeAlarm:CompositeAlarm',
  'aws:sagemaker/model:Model',
  'aws:sagemaker/endpointConfiguration:EndpointConfiguration',
  'aws:sagemaker/endpoint:Endpoint',
  'aws:appautoscaling/target:Target',
  'aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime',
  'aws:bedrock/agentcoreAgentRuntimeEndpoint:AgentcoreAgentRuntimeEndpoint',
  'aws:sfn/stateMachine:StateMachine',
  'aws:lambda/function:Function',
  'aws:secretsmanager/secret:Secret',
  'aws:sns/topic:Topic',
  'aws:codebuild/project:Project',
  'aws:ecs/cluster:Cluster',
  'aws:ecs/taskDefinition:TaskDefinition',
  'aws:cloudfront/distribution:Distribution',
  'aws:cognito/userPool:UserPool',
  'aws:wafv2/webAcl:WebAcl',
]);

export const resourcesTagged: ResourceValidationPolicy = {
  name: 'resources-tagged',
  description: "Taggable AWS resources carry the project's tags.",
  enforcementLevel: 'mandatory',
  configSchema: {
    properties: { requiredTags: { type: 'array', items: { type: 'string' }, default: ['app', 'managed-by'] } },
  },
  validateResource: (args, report) => {
    if (!taggableTypes.has(args.type)) return;
    const required = args.getConfig<{ requiredTags?: string[] }>().requiredTags ?? ['app', 'managed-by'];
    const tags: Record<string, unknown> = args.props.tags ?? {};
    const missing = required.filter((key) => typeof tags[key] !== 'string' || tags[key] === '');
    if (missing.length > 0) report(`missing tags: ${missing.join(', ')}`);
  },
};

/**
 * The retention periods CloudWatch Logs accepts, in days (PutRetentionPolicy's `retentionInDays`:
 * https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html).
 * Kept here because the policy pack is packed on its own; ../shared re-exports it.
 */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

export const logGroupRetention: ResourceValidationPolicy = {
  name: 'cloudwatch-log-group-retention',
  description: 'CloudWatch log groups expire their events (a retention CloudWatch Logs accepts, never "never").',
  enforcementLevel: 'mandatory',
  validateResource: (args, report) => {
    if (args.type !== 'aws:cloudwatch/logGroup:LogGroup') return;
    const days = args.props.retentionInDays;
    if (!(LOG_RETENTION_DAYS as readonly unknown[]).includes(days)) {
      report(
        `log group '${args.props.name ?? args.name}' keeps its events ${days ? `${days} days, not a retention CloudWatch Logs accepts` : 'forever: set retentionInDays'}`,
      );
    }
  },
};
