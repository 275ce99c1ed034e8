// agent-runtime under Pulumi mocks with inboundAuth iam: SigV4 callers only (the say CLI), so no
// authorizer, no web stack read, and Authorization (the SigV4 signature then) is not passed on.
import { beforeAll, expect, test } from '@jest/globals';
import { endpointOutputs } from '../shared/outputs.ts';
import { account, fakeOutputs, organization, type ProgramRun } from '../testing/mocks.ts';
import { FOUNDATION_STACK, agentFoundation, runAgentRuntime } from '../testing/agent-runtime-run.ts';

let run: ProgramRun;

beforeAll(async () => {
  run = await runAgentRuntime({
    config: { inboundAuth: 'iam' },
    stackOutputs: {
      [FOUNDATION_STACK]: agentFoundation({ agentRuntimeRoleArn: `arn:aws:iam::${account}:role/agentcore` }),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs),
    },
  });
});

test('no authorizer and no header allowlist: IAM (SigV4) callers only', () => {
  const runtime = run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs;
  expect(runtime.authorizerConfiguration).toBeUndefined();
  expect(runtime.requestHeaderConfiguration).toBeUndefined();
  expect(run.outputs.inboundAuth).toBe('iam');
});

test('reads no web stack (an IAM-only deployment needs none)', () => {
  expect(Object.keys(run.reads).sort()).toEqual([
    `${organization}/kokoro-endpoint/dev`,
    `${organization}/kokoro-foundation/dev`,
  ]);
  expect(
    run
      .all('pulumi:pulumi:StackReference')
      .map((r) => r.name)
      .sort(),
  ).toEqual(['endpointStack', 'foundationStack']);
});
