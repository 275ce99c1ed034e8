// model-cache under Pulumi mocks: the exported contract, the Lambdas, roles, state machine and the
// sync-on-up resource's inputs, with the default (pinned Kokoro) settings.
import { beforeAll, describe, expect, test } from '@jest/globals';
import { KOKORO_ONNX_REPO, KOKORO_ONNX_REVISION, KOKORO_SYNC_INCLUDES } from '@kokoro-speech/weights/kokoro';
import { modelCacheOutputs } from '../shared/index.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { account, region, runModelCache } from '../testing/model-cache.ts';

let run: Awaited<ReturnType<typeof runModelCache>>;
const prefix = `models/${KOKORO_ONNX_REPO}/${KOKORO_ONNX_REVISION}/`;
beforeAll(async () => {
  run = await runModelCache({});
});

test('exports exactly the contract outputs, from the finished sync', () => {
  expect(Object.keys(run.outputs).sort()).toEqual([...modelCacheOutputs].sort());
  expect(run.outputs).toEqual({
    modelDataUri: `s3://kokoro-dev-weights-0a1b2c3/${prefix}`,
    commit: KOKORO_ONNX_REVISION,
    stateMachineArn: `arn:aws:states:${region}:${account}:stateMachine:kokoro-dev-weight-sync`,
    manifestKey: `${prefix}manifest.json`,
    include: [...KOKORO_SYNC_INCLUDES],
  });
  expect(String(run.outputs.modelDataUri).endsWith('/')).toBe(true);
});

test('the sync resource runs the pinned request against the state machine', () => {
  const sync = run.find('kokoro:model-cache:SyncExecution');
  expect(sync.inputs).toMatchObject({
    stateMachineArn: run.outputs.stateMachineArn,
    region,
    request: {
      repo: KOKORO_ONNX_REPO,
      revision: KOKORO_ONNX_REVISION,
      include: [...KOKORO_SYNC_INCLUDES],
      bucket: 'kokoro-dev-weights-0a1b2c3',
      prefix: 'models/',
    },
  });
});

describe('Lambdas', () => {
  test('run the bundled handlers on Node.js 24 with JSON logs, tracing and the defaults', () => {
    const functions = run.all('aws:lambda/function:Function');
    expect(functions.map((f) => f.inputs.name).sort()).toEqual([
      'kokoro-dev-weight-sync-copy',
      'kokoro-dev-weight-sync-manifest',
      'kokoro-dev-weight-sync-resolve',
    ]);
    for (const fn of functions) {
      expect(fn.inputs).toMatchObject({
        runtime: 'nodejs24.x',
        architectures: ['arm64'],
        handler: 'index.handler',
        tracingConfig: { mode: 'Active' },
        loggingConfig: { logFormat: 'JSON', logGroup: `/aws/lambda/${fn.inputs.name}` },
      });
      expect(fn.inputs.environment.variables).toMatchObject({
        DEFAULT_REPO: KOKORO_ONNX_REPO,
        DEFAULT_REVISION: KOKORO_ONNX_REVISION,
        DEFAULT_INCLUDE: JSON.stringify(KOKORO_SYNC_INCLUDES),
        BUCKET: 'kokoro-dev-weights-0a1b2c3',
        PREFIX: 'models/',
      });
      expect(fn.inputs.environment.variables.HF_TOKEN_SECRET_ARN).toBeUndefined();
    }
    expect(run.find('aws:lambda/function:Function', 'kokoro-dev-weight-sync-copy').inputs).toMatchObject({
      timeout: 900,
      memorySize: 1024,
    });
  });

  test('each has its own role whose policy writes only the model prefix', () => {
    const copyPolicy = JSON.parse(
      run.find('aws:iam/rolePolicy:RolePolicy', 'kokoro-dev-weight-sync-copy-policy').inputs.policy,
    );
    expect(copyPolicy.Statement.find((s: any) => s.Sid === 'WriteModelPrefix').Resource).toBe(
      'arn:aws:s3:::kokoro-dev-weights-0a1b2c3/models/*',
    );
    expect(copyPolicy.Statement.find((s: any) => s.Sid === 'WriteOwnLogs').Resource).toBe(
      `arn:aws:logs:${region}:${account}:log-group:/aws/lambda/kokoro-dev-weight-sync-copy:*`,
    );
    const resolvePolicy = JSON.parse(
      run.find('aws:iam/rolePolicy:RolePolicy', 'kokoro-dev-weight-sync-resolve-policy').inputs.policy,
    );
    expect(resolvePolicy.Statement.map((s: any) => s.Sid)).toEqual(['WriteOwnLogs', 'Tracing']);
    const trust = JSON.parse(run.find('aws:iam/role:Role', 'kokoro-dev-weight-sync-copy-role').inputs.assumeRolePolicy);
    expect(trust.Statement[0]).toMatchObject({
      Principal: { Service: 'lambda.amazonaws.com' },
      Condition: { StringEquals: { 'aws:SourceAccount': account } },
    });
  });
});

test('the four roles are ServiceRoles that keep the URNs of the roles built here before them', () => {
  const urn = (chain: string, name: string) => `urn:pulumi:dev::kokoro-model-cache::${chain}::${name}`;
  const sync = 'kokoro:model-cache:WeightSync';
  const names = ['resolve', 'copy', 'manifest'].map((fn) => `kokoro-dev-weight-sync-${fn}`);
  for (const name of [...names, 'kokoro-dev-weight-sync']) {
    const role = run.find('aws:iam/role:Role', `${name}-role`);
    const policy = run.find('aws:iam/rolePolicy:RolePolicy', `${name}-policy`);
    const component = urn(`${sync}$kokoro:shared:ServiceRole`, name);
    expect([role.parent, policy.parent]).toEqual([component, component]);
    expect(role.aliases).toEqual([urn(`${sync}$aws:iam/role:Role`, `${name}-role`)]);
    expect(policy.aliases).toEqual([urn(`${sync}$aws:iam/rolePolicy:RolePolicy`, `${name}-policy`)]);
  }
  expect(run.all('kokoro:shared:ServiceRole')).toHaveLength(4);
});

describe('state machine', () => {
  test('is a standard workflow with full logging and tracing, invoking the three functions', () => {
    const machine = run.find('aws:sfn/stateMachine:StateMachine');
    expect(machine.inputs).toMatchObject({
      name: 'kokoro-dev-weight-sync',
      type: 'STANDARD',
      tracingConfiguration: { enabled: true },
      loggingConfiguration: {
        level: 'ALL',
        includeExecutionData: true,
        logDestination: `arn:aws:logs:${region}:${account}:log-group:/aws/vendedlogs/states/kokoro-dev-weight-sync:*`,
      },
    });
    const definition = JSON.parse(machine.inputs.definition);
    const fn = (name: string) => `arn:aws:lambda:${region}:${account}:function:kokoro-dev-weight-sync-${name}`;
    expect(definition.States.Resolve.Resource).toBe(fn('resolve'));
    expect(definition.States.CopyFiles.ItemProcessor.States.CopyFile.Resource).toBe(fn('copy'));
    expect(definition.States.CopyFiles.MaxConcurrency).toBe(8);
    expect(definition.States.WriteManifest.Resource).toBe(fn('manifest'));
    const lambdaTimeout = (name: string) =>
      run.find('aws:lambda/function:Function', `kokoro-dev-weight-sync-${name}`).inputs.timeout as number;
    for (const [name, task] of [
      ['resolve', definition.States.Resolve],
      ['copy', definition.States.CopyFiles.ItemProcessor.States.CopyFile],
      ['manifest', definition.States.WriteManifest],
    ] as const) {
      expect(task.TimeoutSeconds).toBeGreaterThan(lambdaTimeout(name)); // the Lambda's timeout comes first
    }
    const policy = JSON.parse(run.find('aws:iam/rolePolicy:RolePolicy', 'kokoro-dev-weight-sync-policy').inputs.policy);
    expect(policy.Statement[0].Resource).toEqual(['resolve', 'copy', 'manifest'].flatMap((n) => [fn(n), `${fn(n)}:*`]));
  });

  test('creates no token secret unless asked', () => {
    expect(run.all('aws:secretsmanager/secret:Secret')).toEqual([]);
  });
});

test('passes the project CrossGuard policies', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('every IAM document matches the service authorization reference (actions, condition keys, ARNs)', async () => {
  const documents = policyDocumentsOf(run.resources);
  expect(documents.map((d) => `${d.resource} ${d.property}`).sort()).toEqual(
    ['copy', 'manifest', 'resolve', '']
      .map((fn) => `kokoro-dev-weight-sync${fn === '' ? '' : `-${fn}`}`)
      .flatMap((name) => [
        `aws:iam/role:Role::${name}-role assumeRolePolicy`,
        `aws:iam/rolePolicy:RolePolicy::${name}-policy policy`,
      ])
      .sort(),
  );
  expect(await referenceProblems(documents)).toEqual([]);
});
