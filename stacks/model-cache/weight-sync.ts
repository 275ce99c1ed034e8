// The weight sync: three Lambdas (resolve, copy one file, write the manifest) bundled from
// handlers/, each with its own least-privilege role and log group, and the Step Functions state
// machine that runs them with retries, logging and tracing.
import * as aws from '@pulumi/aws';
import * as pulumi from '@pulumi/pulumi';
import { handlerArchive } from './bundle.ts';
import { buildSyncDefinition } from './definition.ts';
import { awsScope } from '../shared/iam.ts';
import { ServiceRole, takesOver } from '../shared/service-role.ts';
import { functionPolicy, stateMachinePolicy, type SyncFunction } from './policies.ts';

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
    const scope = awsScope(parent);
    // Each role and policy pair was built here by hand, as direct children of this component, until
    // ServiceRole existed: the same names there, aliased to the old URNs so existing stacks keep them.
    const serviceRole = (roleName: string, args: ConstructorParameters<typeof ServiceRole>[1]) =>
      new ServiceRole(roleName, args, {
        ...parent,
        ...takesOver({
          role: pulumi.createUrn(`${roleName}-role`, 'aws:iam/role:Role', this),
          policy: pulumi.createUrn(`${roleName}-policy`, 'aws:iam/rolePolicy:RolePolicy', this),
        }),
      });

    const functions = (['resolve', 'copy', 'manifest'] as const).map((fn) => {
      const functionName = `${name}-${fn}`;
      const logGroup = new aws.cloudwatch.LogGroup(
        `${functionName}-logs`,
        { name: `/aws/lambda/${functionName}`, retentionInDays, tags: args.tags },
        parent,
      );
      const role = serviceRole(functionName, {
        service: 'lambda.amazonaws.com',
        description: functionSettings[fn].description,
        scope,
        policy: pulumi
          .all([scope, logGroup.arn, args.bucketArn, args.keyArn, args.prefix, args.hfTokenSecretArn])
          .apply(([scope, logGroupArn, bucketArn, keyArn, prefix, secretArn]) =>
            functionPolicy(fn, { ...scope, logGroupArn, bucketArn, keyArn, prefix, secretArn }),
          ),
        tags: args.tags,
      });
      return new aws.lambda.Function(
        functionName,
        {
          name: functionName,
          description: functionSettings[fn].description,
          runtime: aws.lambda.Runtime.NodeJS24dX,
          architectures: ['arm64'],
          handler: 'index.handler',
          code: handlerArchive(fn),
          role: role.roleArn,
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
        { ...parent, dependsOn: [role] },
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
    const stateMachineRole = serviceRole(name, {
      service: 'states.amazonaws.com',
      description: 'Weight sync state machine: invokes its three functions',
      scope,
      policy: pulumi.all(functions.map((f) => f.arn)).apply(stateMachinePolicy),
      tags: args.tags,
    });
    const stateMachine = new aws.sfn.StateMachine(
      name,
      {
        name,
        type: 'STANDARD',
        roleArn: stateMachineRole.roleArn,
        definition: pulumi
          .all([resolveFn.arn, copyFn.arn, manifestFn.arn])
          .apply(([resolveFunctionArn, copyFunctionArn, manifestFunctionArn]) =>
            JSON.stringify(
              buildSyncDefinition({
                resolveFunctionArn,
                copyFunctionArn,
                manifestFunctionArn,
                maxConcurrency: args.maxConcurrency,
                functionTimeoutSeconds: {
                  resolve: functionSettings.resolve.timeout,
                  copy: functionSettings.copy.timeout,
                  manifest: functionSettings.manifest.timeout,
                },
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
      { ...parent, dependsOn: [stateMachineRole] },
    );

    this.stateMachineArn = stateMachine.arn;
    this.functionArns = pulumi.all(functions.map((f) => f.arn));
    this.registerOutputs({ stateMachineArn: this.stateMachineArn, functionArns: this.functionArns });
  }
}
