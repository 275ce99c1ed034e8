// Strict Pulumi mocks for the stack tests: run one program (or construct one component) under mocks,
// record every resource with its parent and aliases as the engine receives them, every
// StackReference output the program reads, and resolve the program's exports.
import * as pulumi from '@pulumi/pulumi';

export const account = '123456789012';
export const region = 'us-east-1';
export const organization = 'acme';

export interface RecordedResource {
  type: string;
  name: string;
  /** The id the fake engine gave it (`<name>-id`, or the service's own form where code parses it). */
  id: string;
  inputs: Record<string, any>;
  state: Record<string, any>;
  /** The parent's URN as registered with the engine ('' for none). */
  parent: string;
  /** Aliases as registered: URNs, or `{name,type,parent}` specs written as JSON. */
  aliases: string[];
  /** URNs of the resources it depends on (dependsOn and the inputs' resources). */
  dependencies: string[];
}

export interface ProgramRun {
  resources: RecordedResource[];
  /** The program's exports, resolved. */
  outputs: Record<string, unknown>;
  /** Full stack-reference name -> output names the program read from it. */
  reads: Record<string, string[]>;
  /** The one resource of this type and name; throws when there is none or several. */
  find(type: string, name?: string): RecordedResource;
  all(type: string): RecordedResource[];
}

export interface RunOptions {
  project: string;
  stack?: string;
  preview?: boolean;
  /** Config values by full key (`project:key`, `aws:region`). */
  config?: Record<string, string>;
  /** Config keys whose values the engine holds as secrets. */
  secretKeys?: string[];
  /** Outputs of the stacks this program references, by full `org/project/stack` name. */
  stackOutputs?: Record<string, Record<string, unknown>>;
  /** Computed values for the program's own resource types, laid over those of `fakeState`. */
  moreState?: (type: string, name: string, inputs: Record<string, any>) => Record<string, any>;
}

/** Ids of the types whose ids the programs read (a user pool id names its region); else `<name>-id`. */
export function fakeId(type: string, name: string): string {
  switch (type) {
    case 'aws:cloudfront/distribution:Distribution':
      return 'E2KOKORO0EXAMPLE';
    case 'aws:cognito/userPool:UserPool':
      return `${region}_KoKoRo123`;
    case 'aws:cognito/userPoolClient:UserPoolClient':
      return '4kokoro0page0client0exampl';
    default:
      return `${name}-id`;
  }
}

/** Values every fake resource computes, by type. Anything not listed echoes its inputs. */
function fakeState(type: string, name: string, inputs: Record<string, any>): Record<string, any> {
  const arn = (service: string, resource: string) => `arn:aws:${service}:${region}:${account}:${resource}`;
  switch (type) {
    case 'aws:s3/bucket:Bucket': {
      const bucket = inputs.bucket ?? `${name}-0a1b2c3`;
      return {
        bucket,
        arn: `arn:aws:s3:::${bucket}`,
        bucketRegionalDomainName: `${bucket}.s3.${region}.amazonaws.com`,
      };
    }
    case 'aws:cloudfront/distribution:Distribution':
      return {
        arn: `arn:aws:cloudfront::${account}:distribution/${fakeId(type, name)}`,
        domainName: 'd111kokoro0example.cloudfront.net',
      };
    case 'aws:cognito/userPool:UserPool':
      return { arn: arn('cognito-idp', `userpool/${fakeId(type, name)}`) };
    case 'aws:cognito/userPoolDomain:UserPoolDomain':
      return { cloudfrontDistribution: 'd222kokoro0login.cloudfront.net' };
    case 'aws:wafv2/webAcl:WebAcl':
      return { arn: `arn:aws:wafv2:us-east-1:${account}:global/webacl/${inputs.name}/${name}-id` };
    case 'aws:kms/key:Key':
      return { arn: arn('kms', `key/${name}-key-id`), keyId: `${name}-key-id` };
    case 'aws:ecr/repository:Repository': {
      const repo = inputs.name ?? `${name}-0a1b2c3`;
      return {
        name: repo,
        arn: arn('ecr', `repository/${repo}`),
        repositoryUrl: `${account}.dkr.ecr.${region}.amazonaws.com/${repo}`,
      };
    }
    case 'aws:iam/role:Role': {
      const role = inputs.name ?? `${name}-0a1b2c3`;
      return { name: role, arn: `arn:aws:iam::${account}:role/${role}` };
    }
    case 'aws:cloudwatch/logGroup:LogGroup':
      return { arn: arn('logs', `log-group:${inputs.name ?? name}`) };
    case 'aws:lambda/function:Function':
      return { arn: arn('lambda', `function:${inputs.name ?? name}`) };
    case 'aws:sfn/stateMachine:StateMachine':
      return { arn: arn('states', `stateMachine:${inputs.name ?? name}`) };
    case 'aws:secretsmanager/secret:Secret':
      return { arn: arn('secretsmanager', `secret:${name}-AbCdEf`) };
    case 'aws:sagemaker/model:Model':
    case 'aws:sagemaker/endpointConfiguration:EndpointConfiguration':
    case 'aws:sagemaker/endpoint:Endpoint': {
      const kind =
        type.split(':')[2] === 'EndpointConfiguration' ? 'endpoint-config' : type.split(':')[2]!.toLowerCase();
      const resourceName = inputs.name ?? `${name}-0a1b2c3`;
      return { name: resourceName, arn: arn('sagemaker', `${kind}/${resourceName}`) };
    }
    case 'awsx:ecr:Image':
      return { imageUri: `${inputs.repositoryUrl}@sha256:${'ab'.repeat(32)}` };
    case 'aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime':
      return {
        agentRuntimeArn: arn('bedrock-agentcore', `runtime/${inputs.agentRuntimeName}-AbCdE12345`),
        agentRuntimeId: `${inputs.agentRuntimeName}-AbCdE12345`,
        agentRuntimeVersion: '1',
      };
    case 'aws:bedrock/agentcoreAgentRuntimeEndpoint:AgentcoreAgentRuntimeEndpoint':
      return {
        agentRuntimeArn: arn('bedrock-agentcore', `runtime/${inputs.agentRuntimeId}`),
        agentRuntimeEndpointArn: arn(
          'bedrock-agentcore',
          `runtime/${inputs.agentRuntimeId}/runtime-endpoint/${inputs.name}`,
        ),
      };
    default:
      return {};
  }
}

const calls: Record<string, (inputs: any) => Record<string, unknown>> = {
  'aws:index/getCallerIdentity:getCallerIdentity': () => ({
    accountId: account,
    arn: `arn:aws:iam::${account}:user/test`,
    userId: 'test',
  }),
  'aws:index/getRegion:getRegion': () => ({ region, name: region, id: region }),
  'aws:index/getPartition:getPartition': () => ({ partition: 'aws', dnsSuffix: 'amazonaws.com', id: 'aws' }),
};

/** Resolves any Output or plain value (outputs under mocks are known, so this never hangs). */
export function resolve<T>(value: pulumi.Input<T>): Promise<T> {
  return new Promise((done) => pulumi.output(value).apply((v) => done(v as T)));
}

export interface MockEngine {
  resources: RecordedResource[];
  /** The one resource of this type and name; throws when there is none or several. */
  find(type: string, name?: string): RecordedResource;
  all(type: string): RecordedResource[];
  /** Resolves once every resource constructed so far has been registered. */
  settled(): Promise<void>;
}

// The SDK's own wait for outstanding registrations (what it awaits before a program exits); not in its typings.
const { waitForRPCs } = pulumi.runtime as unknown as { waitForRPCs(): Promise<void> };

/** Sets mocks and config: resources constructed from now on are recorded (for a component test). */
export async function mockEngine(options: RunOptions): Promise<MockEngine> {
  const resources: RecordedResource[] = [];
  const stackOutputs = options.stackOutputs ?? {};
  // What the registration request carried beyond the mock arguments (parent and aliases), by type and name.
  const registered = new Map<string, { parent: string; aliases: string[]; dependencies: string[] }>();
  const wire = (type: string, name: string) =>
    registered.get(`${type}::${name}`) ?? { parent: '', aliases: [], dependencies: [] };
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        const inputs = args.inputs as Record<string, any>;
        if (args.type === 'pulumi:pulumi:StackReference') {
          const outputs = stackOutputs[inputs.name as string];
          if (outputs === undefined) throw new Error(`unexpected stack reference '${inputs.name}'`);
          const state = { name: inputs.name, outputs, secretOutputNames: [] };
          const id = inputs.name as string;
          resources.push({ type: args.type, name: args.name, id, inputs, state, ...wire(args.type, args.name) });
          return { id, state };
        }
        const state = {
          ...inputs,
          ...fakeState(args.type, args.name, inputs),
          ...options.moreState?.(args.type, args.name, inputs),
        };
        const id = fakeId(args.type, args.name);
        resources.push({ type: args.type, name: args.name, id, inputs, state, ...wire(args.type, args.name) });
        return { id, state };
      },
      call(args) {
        const handler = calls[args.token];
        if (handler === undefined) throw new Error(`unmocked call ${args.token}`);
        return handler(args.inputs);
      },
    },
    options.project,
    options.stack ?? 'dev',
    options.preview ?? false,
    organization,
  );
  // The registration request as the engine receives it: keep its parent, aliases and dependencies.
  const monitor = pulumi.runtime.getMonitor() as any;
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: unknown) => {
    const aliases = req.getAliasesList().map((alias: any) => {
      const spec = alias.getSpec();
      return spec === undefined
        ? alias.getUrn()
        : JSON.stringify({ name: spec.getName(), type: spec.getType(), parent: spec.getParenturn() });
    });
    registered.set(`${req.getType()}::${req.getName()}`, {
      parent: req.getParent(),
      aliases,
      dependencies: req.getDependenciesList(),
    });
    return register(req, callback);
  };
  pulumi.runtime.setAllConfig({ 'aws:region': region, ...options.config }, options.secretKeys);

  const all = (type: string) => resources.filter((r) => r.type === type);
  const find = (type: string, name?: string) => {
    const matches = all(type).filter((r) => name === undefined || r.name === name);
    if (matches.length !== 1) {
      throw new Error(
        `expected one ${type}${name ? ` named ${name}` : ''}, found ${matches.length}: ${matches.map((m) => m.name).join(', ')}`,
      );
    }
    return matches[0]!;
  };
  return { resources, find, all, settled: waitForRPCs };
}

let originalGetOutput: pulumi.StackReference['getOutput'] | undefined;

/** Sets mocks and config, then imports the program (dynamically: a static import would run first). */
export async function runProgram(programUrl: URL, options: RunOptions): Promise<ProgramRun> {
  const engine = await mockEngine(options);

  // Record every output name read from a StackReference; getOutput keeps a missing name from
  // becoming an unhandled rejection, so the contract assertions report it instead.
  const readsByRef: { ref: pulumi.StackReference; output: string }[] = [];
  const proto = pulumi.StackReference.prototype;
  const getOutput = (originalGetOutput ??= proto.getOutput);
  const record = function (this: pulumi.StackReference, name: pulumi.Input<string>) {
    if (typeof name !== 'string') throw new Error('stack output names must be plain strings');
    readsByRef.push({ ref: this, output: name });
    return getOutput.call(this, name);
  };
  // requireOutputValue and getOutputValue read through these two as well.
  proto.requireOutput = record;
  proto.getOutput = record;

  const module = (await import(programUrl.href)) as Record<string, unknown>;
  const outputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(module)) outputs[key] = await resolve(value as pulumi.Input<unknown>);
  const reads: Record<string, string[]> = {};
  for (const { ref, output } of readsByRef) {
    const refName = await resolve(ref.name);
    (reads[refName] ??= []).push(output);
  }
  await engine.settled();
  return { resources: engine.resources, outputs, reads, find: engine.find, all: engine.all };
}

/** Fake outputs for a producer stack: every name in its contract list, valued `<name>-value`. */
export function fakeOutputs(
  names: readonly string[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...Object.fromEntries(names.map((n) => [n, `${n}-value`])), ...overrides };
}
