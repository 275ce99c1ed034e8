// Runs the weight sync during `pulumi up`: a dynamic resource that starts an execution when the
// repository, revision, include list or destination changes, waits for it (logging progress), and
// fails the update with the execution's error and cause. Executions are named from their inputs, so
// re-running `pulumi up` waits for, reuses or (after a failure) resumes the same sync.
import * as pulumi from '@pulumi/pulumi';
import type * as Sfn from '@aws-sdk/client-sfn';
import { createHash } from 'node:crypto';
import type { ManifestOutput } from './handlers/manifest.ts';

export interface SyncRequest {
  repo: string;
  revision: string;
  include: string[];
  bucket: string;
  prefix: string;
}

/** The execution's output is that of its last step, the manifest handler. */
export interface SyncResult extends ManifestOutput {
  executionArn: string;
}

export interface RunSyncArgs {
  stateMachineArn: string;
  /** Base execution name; a failed execution of that name is followed by `<name>-2`, `-3`... */
  executionName: string;
  request: SyncRequest;
  pollMs?: number;
  timeoutMs?: number;
  log?: (message: string) => void;
}

/** `sync-<revision head>-<digest of the request>`: equal requests give equal names (at most 80 characters). */
export function executionName(request: SyncRequest): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([request.repo, request.revision, request.include, request.bucket, request.prefix]))
    .digest('hex');
  return `sync-${request.revision.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 12)}-${digest.slice(0, 24)}`;
}

/**
 * Starts (or finds) the execution for `args.request` and waits for it to end. Takes the SFN module and
 * client as arguments and uses nothing else from this module's scope: the dynamic provider serializes it.
 */
export async function runSyncExecution(sfn: typeof Sfn, client: Sfn.SFNClient, args: RunSyncArgs): Promise<SyncResult> {
  const log = args.log ?? (() => {});
  const pollMs = args.pollMs ?? 5000;
  const deadline = Date.now() + (args.timeoutMs ?? 60 * 60 * 1000);
  const executionPrefix = `${args.stateMachineArn.replace(':stateMachine:', ':execution:')}:`;
  const describe = async (executionArn: string) => {
    try {
      return await client.send(new sfn.DescribeExecutionCommand({ executionArn }));
    } catch (error) {
      if ((error as Error).name === 'ExecutionDoesNotExist') return undefined;
      throw error;
    }
  };

  for (let attempt = 1; attempt <= 20; attempt++) {
    const name = attempt === 1 ? args.executionName : `${args.executionName}-${attempt}`;
    const executionArn = executionPrefix + name;
    let execution = await describe(executionArn);
    if (execution !== undefined && ['FAILED', 'TIMED_OUT', 'ABORTED'].includes(String(execution.status))) {
      log(`earlier weight sync ${name} ended ${execution.status}; starting ${args.executionName}-${attempt + 1}`);
      continue;
    }
    if (execution === undefined) {
      await client.send(
        new sfn.StartExecutionCommand({
          stateMachineArn: args.stateMachineArn,
          name,
          input: JSON.stringify(args.request),
        }),
      );
      log(`weight sync started: ${args.request.repo}@${args.request.revision} (execution ${name})`);
    }
    const started = Date.now();
    while ((execution = await describe(executionArn))?.status === 'RUNNING' || execution === undefined) {
      if (Date.now() > deadline) {
        throw new Error(
          `weight sync ${executionArn} still running after the timeout; it keeps running: run \`pulumi up\` again to wait for it`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      log(`weight sync running for ${Math.round((Date.now() - started) / 1000)} s (execution ${name})`);
    }
    if (execution.status !== 'SUCCEEDED') {
      throw new Error(
        `weight sync ${execution.status}: ${execution.error ?? 'unknown error'}: ${execution.cause ?? 'no cause given'} (execution ${executionArn})`,
      );
    }
    const output = JSON.parse(execution.output ?? '{}') as Omit<SyncResult, 'executionArn'>;
    log(
      `weight sync done: ${output.filesCopied} files copied, ${output.filesSkipped} already present (${output.modelDataUri})`,
    );
    return { executionArn, ...output };
  }
  throw new Error(`weight sync ${args.executionName} failed 20 times; see the executions of ${args.stateMachineArn}`);
}

interface ProviderInputs {
  stateMachineArn: string;
  region: string;
  executionName: string;
  request: SyncRequest;
  timeoutMinutes: number;
}

async function sync(inputs: ProviderInputs): Promise<pulumi.dynamic.CreateResult> {
  // Loaded with require inside the provider process: the provider is serialized without module imports.
  const sfn = require('@aws-sdk/client-sfn') as typeof Sfn;
  const log = (require('@pulumi/pulumi') as typeof pulumi).log;
  const client = new sfn.SFNClient({ region: inputs.region });
  const result = await runSyncExecution(sfn, client, {
    stateMachineArn: inputs.stateMachineArn,
    executionName: inputs.executionName,
    request: inputs.request,
    timeoutMs: inputs.timeoutMinutes * 60_000,
    log: (message) => void log.info(message),
  });
  if (/^[0-9a-f]{40}$/.test(inputs.request.revision) && result.commit !== inputs.request.revision) {
    throw new Error(`weight sync resolved ${inputs.request.revision} to ${result.commit}`);
  }
  return { id: result.executionArn, outs: { ...inputs, ...result } };
}

/** Exported for tests only: Pulumi serializes it into the state and runs it in its provider process. */
export const syncProvider: pulumi.dynamic.ResourceProvider = {
  create: (inputs: ProviderInputs) => sync(inputs),
  // Only a different request re-runs the sync; a replaced state machine alone does not.
  async diff(_id, olds: ProviderInputs, news: ProviderInputs) {
    return {
      changes: JSON.stringify(olds.request) !== JSON.stringify(news.request),
      replaces: [],
      deleteBeforeReplace: false,
    };
  },
  async update(_id, _olds, news: ProviderInputs) {
    return { outs: (await sync(news)).outs };
  },
  // Synced weights stay in the bucket (versioned; the endpoint may still read them).
  async delete() {},
};

export interface SyncExecutionArgs {
  stateMachineArn: pulumi.Input<string>;
  region: pulumi.Input<string>;
  request: pulumi.Input<SyncRequest>;
  /** Minutes to wait for the execution. Default 60. */
  timeoutMinutes?: number;
}

export class SyncExecution extends pulumi.dynamic.Resource {
  declare readonly executionArn: pulumi.Output<string>;
  declare readonly commit: pulumi.Output<string>;
  declare readonly modelDataUri: pulumi.Output<string>;
  declare readonly manifestKey: pulumi.Output<string>;

  constructor(name: string, args: SyncExecutionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      syncProvider,
      name,
      {
        stateMachineArn: args.stateMachineArn,
        region: args.region,
        request: args.request,
        executionName: pulumi.output(args.request).apply((request) => executionName(request as SyncRequest)),
        timeoutMinutes: args.timeoutMinutes ?? 60,
        executionArn: undefined,
        commit: undefined,
        modelDataUri: undefined,
        manifestKey: undefined,
      },
      opts,
      'model-cache',
      'SyncExecution',
    );
  }
}
