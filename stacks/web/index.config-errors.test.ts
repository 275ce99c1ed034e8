// web under Pulumi mocks with a custom domain but no certificate: the preview stops before any
// resource is declared, naming both keys.
import { expect, test } from '@jest/globals';
import { foundationOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram } from '../testing/mocks.ts';

test('a custom page domain without its certificate is refused at preview', async () => {
  const options = {
    project: 'kokoro-web',
    preview: true,
    config: { 'kokoro-web:domainName': 'voice.example.com' },
    stackOutputs: { [`${organization}/kokoro-foundation/dev`]: fakeOutputs(foundationOutputs, { region }) },
  };
  await expect(runProgram(new URL('./index.ts', import.meta.url), options)).rejects.toThrow(
    "set both 'domainName' and 'certificateArn' (an ACM certificate in us-east-1), or neither",
  );
});
