// Typed IAM policy documents for every stack: statement and document types, the partition / region /
// account scope that ARNs are written for (from the provider, via getPartition / getRegion /
// getCallerIdentity), ARN builders, and the one trust policy builder every service role uses.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';

/** Condition operators this project writes (IAM has more; add them here when a policy needs one). */
export type ConditionOperator = 'StringEquals' | 'StringLike' | 'ArnLike' | 'ArnEquals' | 'Bool' | 'NumericLessThan';

export type Condition = Partial<Record<ConditionOperator, Record<string, string | string[]>>>;

export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  /** Absent in trust policies (the role itself is the resource). */
  Resource?: string | string[];
  Principal?: '*' | { Service?: string | string[]; AWS?: string | string[]; Federated?: string | string[] };
  Condition?: Condition;
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: Statement[];
}

/** A policy document; throws on a repeated Sid (IAM refuses them in one document). */
export function policyDocument(statements: Statement[]): PolicyDocument {
  const sids = statements.map((s) => s.Sid).filter((sid) => sid !== undefined);
  const repeated = sids.find((sid, i) => sids.indexOf(sid) !== i);
  if (repeated !== undefined) throw new Error(`policy document repeats Sid '${repeated}'`);
  return { Version: '2012-10-17', Statement: statements };
}

/** The bucket policy statement that denies every request made without TLS (every bucket has it). */
export function denyInsecureTransport(bucketArn: string): Statement {
  return {
    Sid: 'DenyInsecureTransport',
    Effect: 'Deny',
    Principal: '*',
    Action: 's3:*',
    Resource: [bucketArn, `${bucketArn}/*`],
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  };
}

/** Where a stack's resources live: what every ARN and trust condition is written for. */
export interface AwsScope {
  partition: string;
  region: string;
  account: string;
}

/** The scope of the AWS provider the program runs with (its partition, region and caller account). */
export function awsScope(opts?: pulumi.InvokeOutputOptions): pulumi.Output<AwsScope> {
  return pulumi
    .all([
      aws.getPartitionOutput({}, opts).partition,
      aws.getRegionOutput({}, opts).region,
      aws.getCallerIdentityOutput({}, opts).accountId,
    ])
    .apply(([partition, region, account]) => ({ partition, region, account }));
}

/**
 * `arn:<partition>:<service>:<region>:<account>:<resource>`, with this scope's region and account
 * unless given (pass '' for services whose ARNs carry none, '*' for any).
 */
export function arn(
  scope: AwsScope,
  service: string,
  resource: string,
  parts: { region?: string; account?: string } = {},
): string {
  if (!/^[a-z0-9-]+$/.test(service)) throw new Error(`arn: service '${service}' is not an IAM service prefix`);
  if (resource === '') throw new Error(`arn: empty resource for ${service}`);
  return `arn:${scope.partition}:${service}:${parts.region ?? scope.region}:${parts.account ?? scope.account}:${resource}`;
}

/** A bucket's ARN (S3 ARNs carry no region or account). */
export const bucketArn = (scope: AwsScope, bucket: string): string =>
  arn(scope, 's3', bucket, { region: '', account: '' });

/** A CloudWatch Logs log group: the resource of CreateLogGroup and DescribeLogStreams. */
export const logGroupArn = (scope: AwsScope, name: string): string => arn(scope, 'logs', `log-group:${name}`);

/** Log streams of a group: the resource of CreateLogStream and PutLogEvents. */
export const logStreamArn = (scope: AwsScope, group: string, stream = '*'): string =>
  `${logGroupArn(scope, group)}:log-stream:${stream}`;

/**
 * The services whose roles this project creates, and how each proves on whose behalf it assumes a
 * role. aws:SourceAccount is always required; aws:SourceArn only where the service sets it for the
 * role assumption: AgentCore (documented for runtime execution roles) and Step Functions
 * (documented for state machine roles). SageMaker and Lambda get aws:SourceAccount only.
 */
const trustedServices = {
  'sagemaker.amazonaws.com': {},
  'lambda.amazonaws.com': {},
  'states.amazonaws.com': { sourceArn: (scope: AwsScope) => arn(scope, 'states', 'stateMachine:*') },
  'bedrock-agentcore.amazonaws.com': { sourceArn: (scope: AwsScope) => arn(scope, 'bedrock-agentcore', '*') },
} satisfies Record<string, { sourceArn?: (scope: AwsScope) => string }>;

export type TrustedService = keyof typeof trustedServices;

/** Trust policy letting `service` assume the role, only on behalf of this account (and its resources). */
export function serviceTrustPolicy(service: TrustedService, scope: AwsScope): PolicyDocument {
  const conditions: { sourceArn?: (scope: AwsScope) => string } | undefined = trustedServices[service];
  if (conditions === undefined) {
    throw new Error(`no trust conditions known for service '${service}' (add it to shared/iam.ts trustedServices)`);
  }
  const condition: Condition = { StringEquals: { 'aws:SourceAccount': scope.account } };
  if (conditions.sourceArn !== undefined) condition.ArnLike = { 'aws:SourceArn': conditions.sourceArn(scope) };
  return policyDocument([
    {
      Sid: 'AssumeRole',
      Effect: 'Allow',
      Principal: { Service: service },
      Action: ['sts:AssumeRole'],
      Condition: condition,
    },
  ]);
}

/** The actions a state machine's log delivery needs, on "*" only (kept with the policy pack's list). */
export { logDeliveryActions } from '../policy/iam-documents.ts';
