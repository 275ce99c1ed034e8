// agent-runtime under Pulumi mocks with the default inboundAuth (web): the JWT authorizer comes
// from the web layer's outputs (its user pool's discovery URL, the page's client id), and the
// runtime passes the caller's bearer token on to the agent.
import { beforeAll, expect, test } from '@jest/globals';
import { agentRuntimeOutputs, endpointOutputs, webOutputs } from '../shared/outputs.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, fakeOutputs, organization, region, type ProgramRun } from '../testing/mocks.ts';
import { FOUNDATION_STACK, agentFoundation, runAgentRuntime } from '../testing/agent-runtime-run.ts';

const discoveryUrl = `https://cognito-idp.${region}.amazonaws.com/${region}_WebPool9/.well-known/openid-configuration`;
let run: ProgramRun;

beforeAll(async () => {
  run = await runAgentRuntime({
    stackOutputs: {
      [FOUNDATION_STACK]: agentFoundation({ agentRuntimeRoleArn: `arn:aws:iam::${account}:role/agentcore` }),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs),
      [`${organization}/kokoro-web/dev`]: fakeOutputs(webOutputs, {
        jwtDiscoveryUrl: discoveryUrl,
        userPoolClientId: 'pageclient0123456789abcdef',
      }),
    },
  });
});

test("the authorizer accepts the web layer's user pool, for the page's client only", () => {
  const runtime = run.find('aws:bedrock/agentcoreAgentRuntime:AgentcoreAgentRuntime').inputs;
  expect(runtime.authorizerConfiguration).toEqual({
    customJwtAuthorizer: { discoveryUrl, allowedClients: ['pageclient0123456789abcdef'] },
  });
  expect(runtime.requestHeaderConfiguration).toEqual({ requestHeaderAllowlists: ['Authorization'] });
});

test('reads exactly those two outputs from the web stack, and says so in its own', () => {
  expect(run.reads[`${organization}/kokoro-web/dev`]!.sort()).toEqual(['jwtDiscoveryUrl', 'userPoolClientId']);
  for (const name of run.reads[`${organization}/kokoro-web/dev`]!) expect(webOutputs).toContain(name);
  expect(Object.keys(run.outputs).sort()).toEqual([...agentRuntimeOutputs].sort());
  expect(run.outputs).toMatchObject({ inboundAuth: 'web', qualifier: 'live' });
});

test('passes every policy of the CrossGuard pack', async () => {
  expect(await policyViolations(run.resources)).toEqual([]);
});
