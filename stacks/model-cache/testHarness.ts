// Test helper: runs this program under strict Pulumi mocks with the Lambda bundling and the
// sync-on-up dynamic resource replaced (a dynamic provider cannot be serialized under jest), and
// records every resource. Call before anything imports @pulumi/aws resources of the program.
import { jest } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';

export const account = '123456789012';
export const region = 'us-east-1';
export const organization = 'acme';

export interface Recorded {
  type: string;
  name: string;
  inputs: Record<string, any>;
  state: Record<string, any>;
}

function fakeState(type: string, name: string, inputs: Record<string, any>): Record<string, any> {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${account}:${resource}`;
  switch (type) {
    case 'aws:iam/role:Role':
      return { name: `${name}-0a1b2c3`, arn: `arn:aws:iam::${account}:role/${name}-0a1b2c3` };
    case 'aws:cloudwatch/logGroup:LogGroup':
      return { arn: arn('logs', `log-group:${inputs.name}`) };
    case 'aws:lambda/function:Function':
      return { arn: arn('lambda', `function:${inputs.name}`) };
    case 'aws:sfn/stateMachine:StateMachine':
      return { arn: arn('states', `stateMachine:${inputs.name}`) };
    case 'aws:secretsmanager/secret:Secret':
      return { arn: arn('secretsmanager', `secret:${name}-AbCdEf`) };
    case 'kokoro:model-cache:SyncExecution': {
      const { repo, revision, bucket, prefix } = inputs.request;
      const keyPrefix = `${prefix}${repo}/${revision}/`;
      return { executionArn: arn('states', `execution:x:${inputs.executionName}`), commit: revision, modelDataUri: `s3://${bucket}/${keyPrefix}`, manifestKey: `${keyPrefix}manifest.json` };
    }
    default:
      return {};
  }
}

const calls: Record<string, () => Record<string, unknown>> = {
  'aws:index/getCallerIdentity:getCallerIdentity': () => ({ accountId: account, arn: `arn:aws:iam::${account}:user/test`, userId: 'test' }),
  'aws:index/getRegion:getRegion': () => ({ region, name: region, id: region }),
  'aws:index/getPartition:getPartition': () => ({ partition: 'aws', dnsSuffix: 'amazonaws.com', id: 'aws' }),
};

export async function runModelCache(config: Record<string, string>, secretKeys: string[] = []) {
  const resources: Recorded[] = [];
  jest.unstable_mockModule('./bundle.ts', () => ({
    handlerArchive: (name: string) =>
      pulumi.output(new pulumi.asset.AssetArchive({ 'index.mjs': new pulumi.asset.StringAsset(`// bundle of handlers/${name}.ts`) })),
  }));
  jest.unstable_mockModule('./syncExecution.ts', () => {
    class SyncExecution extends pulumi.CustomResource {
      declare readonly executionArn: pulumi.Output<string>;
      declare readonly commit: pulumi.Output<string>;
      declare readonly modelDataUri: pulumi.Output<string>;
      declare readonly manifestKey: pulumi.Output<string>;
      constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
        super('kokoro:model-cache:SyncExecution', name, { ...args, executionName: 'sync-test', executionArn: undefined, commit: undefined, modelDataUri: undefined, manifestKey: undefined }, opts);
      }
    }
    return { SyncExecution };
  });
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const inputs = args.inputs as Record<string, any>;
        if (args.type === 'pulumi:pulumi:StackReference') {
          if (inputs.name !== `${organization}/kokoro-foundation/dev`) throw new Error(`unexpected stack reference '${inputs.name}'`);
          const outputs = {
            weightsBucketName: 'kokoro-dev-weights-0a1b2c3',
            weightsBucketArn: 'arn:aws:s3:::kokoro-dev-weights-0a1b2c3',
            weightsKeyArn: `arn:aws:kms:${region}:${account}:key/weights`,
            weightsPrefix: 'models/',
          };
          return { id: inputs.name, state: { name: inputs.name, outputs, secretOutputNames: [] } };
        }
        const state = { ...inputs, ...fakeState(args.type, args.name, inputs) };
        resources.push({ type: args.type, name: args.name, inputs, state });
        return { id: `${args.name}-id`, state };
      },
      call(args) {
        const handler = calls[args.token];
        if (handler === undefined) throw new Error(`unmocked call ${args.token}`);
        return handler();
      },
    },
    'kokoro-model-cache',
    'dev',
    false,
    organization,
  );
  pulumi.runtime.setAllConfig({ 'aws:region': region, ...config }, secretKeys);
  const program = (await import('./index.ts')) as Record<string, pulumi.Output<unknown>>;
  const outputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(program)) outputs[key] = await new Promise((done) => (pulumi.output(value) as pulumi.Output<unknown>).apply((v) => done(v)));
  const find = (type: string, name?: string) => {
    const matches = resources.filter((r) => r.type === type && (name === undefined || r.name === name));
    if (matches.length !== 1) throw new Error(`expected one ${type} ${name ?? ''}, found ${matches.map((m) => m.name).join(', ') || 'none'}`);
    return matches[0]!;
  };
  return { resources, outputs, find, all: (type: string) => resources.filter((r) => r.type === type) };
}
