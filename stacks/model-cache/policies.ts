// IAM documents of the weight sync, as plain functions: each Lambda may write only the destination
// prefix and read only the token secret; the state machine may invoke only its three functions.
// Document types and the trust policy: ../shared/iam.ts.
import {
  logDeliveryActions,
  policyDocument,
  type AwsScope,
  type PolicyDocument,
  type Statement,
} from '../shared/iam.ts';

export interface FunctionPolicyArgs extends AwsScope {
  logGroupArn: string;
  bucketArn: string;
  keyArn: string;
  /** Key prefix the sync writes under, e.g. "models/" (the folder, ending in '/'). */
  prefix: string;
  /** Secret holding the Hugging Face token, when there is one. */
  secretArn?: string;
}

export type SyncFunction = 'resolve' | 'copy' | 'manifest';

/** What each sync Lambda needs, and nothing more. */
export function functionPolicy(fn: SyncFunction, args: FunctionPolicyArgs): PolicyDocument {
  const prefix = args.prefix.replace(/^\/+/, '');
  if (prefix !== '' && !prefix.endsWith('/')) throw new Error(`prefix must end in '/', got '${args.prefix}'`);
  const objects = `${args.bucketArn}/${prefix}*`;
  const statements: Statement[] = [
    {
      Sid: 'WriteOwnLogs',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: `${args.logGroupArn}:*`,
    },
    { Sid: 'Tracing', Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' },
  ];
  if (fn !== 'manifest' && args.secretArn) {
    statements.push({
      Sid: 'ReadHubToken',
      Effect: 'Allow',
      Action: 'secretsmanager:GetSecretValue',
      Resource: args.secretArn,
    });
  }
  if (fn === 'resolve') return policyDocument(statements);

  const write =
    fn === 'copy'
      ? ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts']
      : ['s3:GetObject', 's3:PutObject'];
  statements.push(
    { Sid: 'WriteModelPrefix', Effect: 'Allow', Action: write, Resource: objects },
    // Without ListBucket a missing object answers 403 instead of 404, and "not there yet" could not be told
    // from "denied". S3 asks for it with the object's key as s3:prefix, so the prefix condition holds.
    {
      Sid: 'TellMissingObjects',
      Effect: 'Allow',
      Action: 's3:ListBucket',
      Resource: args.bucketArn,
      Condition: { StringLike: { 's3:prefix': `${prefix}*` } },
    },
    {
      Sid: 'UseWeightsKeyThroughS3',
      Effect: 'Allow',
      Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
      Resource: args.keyArn,
      Condition: { StringEquals: { 'kms:ViaService': `s3.${args.region}.amazonaws.com` } },
    },
  );
  return policyDocument(statements);
}

/** The state machine invokes its three functions and delivers its own logs and traces. */
export function stateMachinePolicy(functionArns: readonly string[]): PolicyDocument {
  return policyDocument([
    {
      Sid: 'InvokeSyncFunctions',
      Effect: 'Allow',
      Action: 'lambda:InvokeFunction',
      Resource: functionArns.flatMap((arn) => [arn, `${arn}:*`]),
    },
    {
      // CloudWatch Logs delivery for Step Functions works only with these actions on "*" (AWS documents no narrower form).
      Sid: 'DeliverExecutionLogs',
      Effect: 'Allow',
      Action: logDeliveryActions,
      Resource: '*',
    },
    {
      Sid: 'Tracing',
      Effect: 'Allow',
      Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'xray:GetSamplingRules', 'xray:GetSamplingTargets'],
      Resource: '*',
    },
  ]);
}
