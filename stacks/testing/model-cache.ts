// Test helper: runs the model-cache program under the shared strict Pulumi mocks (./mocks.ts) with
// the Lambda bundling and the sync-on-up dynamic resource replaced (a dynamic provider cannot be
// serialized under jest). Call before anything imports @pulumi/aws resources of the program.
import { jest } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { fileURLToPath } from 'node:url';
import { account, organization, region, runProgram, type ProgramRun } from './mocks.ts';

export { account, organization, region };

const program = (file: string) => new URL(`../model-cache/${file}`, import.meta.url);

/** What the finished sync reports, computed from the request the way the real execution lays it out. */
function syncState(type: string, _name: string, inputs: Record<string, any>): Record<string, any> {
  if (type !== 'kokoro:model-cache:SyncExecution') return {};
  const { repo, revision, bucket, prefix } = inputs.request;
  const keyPrefix = `${prefix}${repo}/${revision}/`;
  return {
    executionArn: `arn:aws:states:${region}:${account}:execution:x:${inputs.executionName}`,
    commit: revision,
    modelDataUri: `s3://${bucket}/${keyPrefix}`,
    manifestKey: `${keyPrefix}manifest.json`,
  };
}

export async function runModelCache(config: Record<string, string>, secretKeys: string[] = []): Promise<ProgramRun> {
  jest.unstable_mockModule(fileURLToPath(program('bundle.ts')), () => ({
    handlerArchive: (name: string) =>
      pulumi.output(
        new pulumi.asset.AssetArchive({
          'index.mjs': new pulumi.asset.StringAsset(`// bundle of handlers/${name}.ts`),
        }),
      ),
  }));
  jest.unstable_mockModule(fileURLToPath(program('sync-execution.ts')), () => {
    class SyncExecution extends pulumi.CustomResource {
      declare readonly executionArn: pulumi.Output<string>;
      declare readonly commit: pulumi.Output<string>;
      declare readonly modelDataUri: pulumi.Output<string>;
      declare readonly manifestKey: pulumi.Output<string>;
      constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
        super(
          'kokoro:model-cache:SyncExecution',
          name,
          {
            ...args,
            executionName: 'sync-test',
            executionArn: undefined,
            commit: undefined,
            modelDataUri: undefined,
            manifestKey: undefined,
          },
          opts,
        );
      }
    }
    return { SyncExecution };
  });
  return runProgram(program('index.ts'), {
    project: 'kokoro-model-cache',
    config,
    secretKeys,
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: {
        region,
        weightsBucketName: 'kokoro-dev-weights-0a1b2c3',
        weightsBucketArn: 'arn:aws:s3:::kokoro-dev-weights-0a1b2c3',
        weightsKeyArn: `arn:aws:kms:${region}:${account}:key/weights`,
        weightsPrefix: 'models/',
      },
    },
    moreState: syncState,
  });
}
