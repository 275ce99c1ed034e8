// agent-runtime under Pulumi mocks with contradictory auth settings: the preview stops before any
// resource is declared, naming the keys.
import { expect, test } from '@jest/globals';
import { endpointOutputs, foundationOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

test('inboundAuth web with the jwt keys set is refused: they name another issuer', async () => {
  const options = {
    project: 'kokoro-agent-runtime',
    preview: true,
    config: {
      'kokoro-agent-runtime:inboundAuth': 'web',
      'kokoro-agent-runtime:cognitoUserPoolId': 'us-east-1_AbC123',
    },
    stackOutputs: {
      [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { sttProvider: 'transcribe', region }),
      [`${organization}/kokoro-endpoint/dev`]: fakeOutputs(endpointOutputs),
    },
  };
  await expect(runProgram(new URL('./index.ts', import.meta.url), options)).rejects.toThrow(
    "inboundAuth 'web' takes no 'jwtDiscoveryUrl' or 'cognitoUserPoolId' (those are for inboundAuth 'jwt')",
  );
});
