// site under Pulumi mocks against an IAM-only agent runtime: its sign-ins would be refused, so the
// preview stops before any upload, saying what to change in the agent-runtime layer.
import { expect, test } from '@jest/globals';
import { agentRuntimeOutputs, foundationOutputs, webOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

test('an agent runtime with inboundAuth iam is refused at preview', async () => {
  const options = {
    project: 'kokoro-site',
    preview: true,
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }),
      [`${organization}/kokoro-web/dev`]: fakeOutputs(webOutputs),
      [`${organization}/kokoro-agent-runtime/dev`]: fakeOutputs(agentRuntimeOutputs, { inboundAuth: 'iam' }),
    },
  };
  await expect(runProgram(new URL('./index.ts', import.meta.url), options)).rejects.toThrow(
    "the agent-runtime stack takes inboundAuth 'iam', so the page's sign-ins would be refused: set inboundAuth web there",
  );
});
