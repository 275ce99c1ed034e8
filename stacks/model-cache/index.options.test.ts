// model-cache under Pulumi mocks with options set: no sync during `up` (outputs computed from the
// pinned commit), a Hugging Face token kept in a stack secret, other concurrency and part size.
import { beforeAll, expect, test } from '@jest/globals';
import { policyViolations } from '../testing/policy-check.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { account, region, runModelCache } from '../testing/model-cache.ts';

const commit = 'c'.repeat(40);
let run: Awaited<ReturnType<typeof runModelCache>>;
beforeAll(async () => {
  run = await runModelCache(
    {
      'kokoro-model-cache:repo': 'acme/other-tts',
      'kokoro-model-cache:revision': commit,
      'kokoro-model-cache:include': JSON.stringify(['*.json', 'onnx/model_fp16.onnx']),
      'kokoro-model-cache:syncOnUp': 'false',
      'kokoro-model-cache:maxConcurrency': '3',
      'kokoro-model-cache:partSizeMiB': '64',
      'kokoro-model-cache:hfToken': 'hf_example',
    },
    ['kokoro-model-cache:hfToken'],
  );
});

test('without syncOnUp no sync runs and the outputs name the pinned folder', () => {
  expect(run.all('kokoro:model-cache:SyncExecution')).toEqual([]);
  expect(run.outputs).toMatchObject({
    modelDataUri: `s3://kokoro-dev-weights-0a1b2c3/models/acme/other-tts/${commit}/`,
    commit,
    manifestKey: `models/acme/other-tts/${commit}/manifest.json`,
  });
});

test('a token becomes a stack secret that only resolve and copy may read', () => {
  const secretArn = `arn:aws:secretsmanager:${region}:${account}:secret:kokoro-dev-hf-token-AbCdEf`;
  // Still a secret in the engine's eyes: Pulumi's secret signature wraps the value.
  expect(run.find('aws:secretsmanager/secretVersion:SecretVersion').inputs.secretString).toEqual({
    '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270',
    value: 'hf_example',
  });
  for (const fn of ['resolve', 'copy']) {
    const policy = JSON.parse(
      run.find('aws:iam/rolePolicy:RolePolicy', `kokoro-dev-weight-sync-${fn}-policy`).inputs.policy,
    );
    expect(policy.Statement.find((s: any) => s.Sid === 'ReadHubToken').Resource).toBe(secretArn);
    expect(
      run.find('aws:lambda/function:Function', `kokoro-dev-weight-sync-${fn}`).inputs.environment.variables
        .HF_TOKEN_SECRET_ARN,
    ).toBe(secretArn);
  }
  const manifestFn = run.find('aws:lambda/function:Function', 'kokoro-dev-weight-sync-manifest');
  expect(manifestFn.inputs.environment.variables.HF_TOKEN_SECRET_ARN).toBeUndefined();
});

test('concurrency, part size and includes reach the state machine and the Lambdas', () => {
  expect(
    JSON.parse(run.find('aws:sfn/stateMachine:StateMachine').inputs.definition).States.CopyFiles.MaxConcurrency,
  ).toBe(3);
  const copy = run.find('aws:lambda/function:Function', 'kokoro-dev-weight-sync-copy').inputs.environment.variables;
  expect(copy).toMatchObject({
    PART_SIZE_MIB: '64',
    DEFAULT_INCLUDE: '["*.json","onnx/model_fp16.onnx"]',
    DEFAULT_REPO: 'acme/other-tts',
  });
});

test('passes the project CrossGuard policies', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});

test('every IAM document matches the service authorization reference, the token statements included', async () => {
  const documents = policyDocumentsOf(run.resources);
  expect(documents).toHaveLength(8);
  expect(documents.flatMap((d) => d.statements.map((s) => s.Sid))).toContain('ReadHubToken');
  expect(await referenceProblems(documents)).toEqual([]);
});
