// The weight sync: three Lambdas (resolve, copy one file, write the manifest) bundled from
// handlers/, each with its own least-privilege role and log group, and the Step Functions state
// machine that runs them with retries, logging and tracing.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { handlerArchive } from './bundle.ts';
import { buildSyncDefinition } from './definition.ts';
import { functionPolicy, serviceTrustPolicy, stateMachinePolicy, type SyncFunction } from './policies.ts';

export interface WeightSyncArgs {
  bucketName: pulumi.Input<string>;
  bucketArn: pulumi.Input<string>;
  keyArn: pulumi.Input<string>;
  /** Key prefix (ending in '/') under which `<repo>/<commit>/` folders are written. */
  prefix: pulumi.Input<string>;
  /** What an execution started with `{}` syncs. */
  defaults: { repo: string; revision: string; include: string[] };
  /** Secrets Manager secret holding a Hugging Face token (plain text). Default: none (public repositories). */
  hfTokenSecretArn?: pulumi.Input<string>;
  /** Hugging Face base URL. Default https://huggingface.co. */
  hfEndpoint?: string;
  /** Files copied at once. Default 8. */
  maxConcurrency?: number;
  /** Multipart part size in MiB. Default 16. */
  partSizeMiB?: number;
  /** Days the Lambda and execution logs are kept. Default 30. */
  logRetentionDays?: number;
  tags: Record<string, string>;
}

const functionSettings: Record<SyncFunction, { memorySize: number; timeout: number; description: string }> = {
  resolve: {
    memorySize: 256,
    timeout: 120,
    description: 'Weight sync: resolve a Hugging Face revision and list its files',
  },
  // Memory also buys network bandwidth; four 16 MiB parts in flight fit easily.
  copy: {
    memorySize: 1024,
    timeout: 900,
    description: 'Weight sync: stream one file from Hugging Face into S3, verified',
  },
  manifest: { memorySize: 256, timeout: 120, description: 'Weight sync: write manifest.json last' },
};

export class WeightSync extends pulumi.ComponentResource {
  declare readonly stateMachineArn: pulumi.Output<string>;
  declare readonly functionArns: pulumi.Output<string[]>;

  constructor(name: string, args: WeightSyncArgs, opts?: pulumi.ComponentResourceOptions) {
    super('kokoro:model-cache:WeightSync', name, {}, opts);
    const parent = { parent: this };
    const retentionInDays = args.logRetentionDays ?? 30;
    const partition = aws.getPartitionOutput({}, parent).partition;
    const region = aws.getRegionOutput({}, parent).region;
    const account = aws.getCallerIdentityOutput({}, parent).accountId;

    const functions = (['resolve', 'copy', 'manifest'] as const).map((fn) => {
      const functionName = `${name}-${fn}`;
      const logGroup = new aws.cloudwatch.LogGroup(
        `${functionName}-logs`,
        { name: `/aws/lambda/${functionName}`, retentionInDays, tags: args.tags },
        parent,
      );
      const role = new aws.iam.Role(
        `${functionName}-role`,
        {
          description: functionSettings[fn].description,
          assumeRolePolicy: pulumi
            .all([partition, region, account])
            .apply(([partition, region, account]) =>
              JSON.stringify(serviceTrustPolicy('lambda.amazonaws.com', { partition, region, account })),
            ),
          tags: args.tags,
        },
        parent,
      );
      const policy = new aws.iam.RolePolicy(
        `${functionName}-policy`,
        {
          role: role.name,
          policy: pulumi
            .all([
              partition,
              region,
              account,
              logGroup.arn,
              args.bucketArn,
              args.keyArn,
              args.prefix,
              args.hfTokenSecretArn,
            ])
            .apply(([partition, region, account, logGroupArn, bucketArn, keyArn, prefix, secretArn]) =>
              JSON.stringify(
                functionPolicy(fn, { partition, region, account, logGroupArn, bucketArn, keyArn, prefix, secretArn }),
              ),
            ),
        },
        parent,
      );
      return new aws.lambda.Function(
        functionName,
        {
          name: functionName,
          description: functionSettings[fn].description,
          runtime: aws.lambda.Runtime.NodeJS24dX,
          architectures: ['arm64'],
          handler: 'index.handler',
          code: handlerArchive(fn),
          role: role.arn,
          memorySize: functionSettings[fn].memorySize,
          timeout: functionSettings[fn].timeout,
          loggingConfig: {
            logFormat: 'JSON',
            logGroup: logGroup.name,
            applicationLogLevel: 'INFO',
            systemLogLevel: 'WARN',
          },
          tracingConfig: { mode: 'Active' },
          environment: {
            variables: {
              NODE_OPTIONS: '--enable-source-maps',
              DEFAULT_REPO: args.defaults.repo,
              DEFAULT_REVISION: args.defaults.revision,
              DEFAULT_INCLUDE: JSON.stringify(args.defaults.include),
              BUCKET: args.bucketName,
              PREFIX: args.prefix,
              PART_SIZE_MIB: String(args.partSizeMiB ?? 16),
              ...(args.hfEndpoint ? { HF_ENDPOINT: args.hfEndpoint } : {}),
              ...(args.hfTokenSecretArn && fn !== 'manifest' ? { HF_TOKEN_SECRET_ARN: args.hfTokenSecretArn } : {}),
            },
          },
          tags: args.tags,
        },
        { ...parent, dependsOn: [policy] },
      );
    });
    const [resolveFn, copyFn, manifestFn] = functions as [
      aws.lambda.Function,
      aws.lambda.Function,
      aws.lambda.Function,
    ];

    const executionLogs = new aws.cloudwatch.LogGroup(
      `${name}-execution-logs`,
      { name: `/aws/vendedlogs/states/${name}`, retentionInDays, tags: args.tags },
      parent,
    );
    const stateMachineRole = new aws.iam.Role(
      `${name}-role`,
      {
        description: 'Weight sync state machine: invokes its three functions',
        assumeRolePolicy: pulumi
          .all([partition, region, account])
          .apply(([partition, region, account]) =>
            JSON.stringify(
              serviceTrustPolicy(
                'states.amazonaws.com',
                { partition, region, account },
                `arn:${partition}:states:${region}:${account}:stateMachine:*`,
              ),
            ),
          ),
        tags: args.tags,
      },
      parent,
    );
    const stateMachinePolicyResource = new aws.iam.RolePolicy(
      `${name}-policy`,
      {
        role: stateMachineRole.name,
        policy: pulumi.all(functions.map((f) => f.arn)).apply((arns) => JSON.stringify(stateMachinePolicy(arns))),
      },
      parent,
    );
    const stateMachine = new aws.sfn.StateMachine(
      name,
      {
        name,
        type: 'STANDARD',
        roleArn: stateMachineRole.arn,
        definition: pulumi
          .all([resolveFn.arn, copyFn.arn, manifestFn.arn])
          .apply(([resolveFunctionArn, copyFunctionArn, manifestFunctionArn]) =>
            JSON.stringify(
              buildSyncDefinition({
                resolveFunctionArn,
                copyFunctionArn,
                manifestFunctionArn,
                maxConcurrency: args.maxConcurrency,
                copyTimeoutSeconds: functionSettings.copy.timeout,
              }),
            ),
          ),
        loggingConfiguration: {
          level: 'ALL',
          includeExecutionData: true,
          logDestination: pulumi.interpolate`${executionLogs.arn}:*`,
        },
        tracingConfiguration: { enabled: true },
        tags: args.tags,
      },
      { ...parent, dependsOn: [stateMachinePolicyResource] },
    );

    this.stateMachineArn = stateMachine.arn;
    this.functionArns = pulumi.all(functions.map((f) => f.arn));
    this.registerOutputs({ stateMachineArn: this.stateMachineArn, functionArns: this.functionArns });
  }
}
