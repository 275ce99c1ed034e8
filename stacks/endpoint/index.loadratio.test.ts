// endpoint under Pulumi mocks with a targetLoadRatio out of range: the program stops, naming the key.
import { expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { runProgram } from '../testing/mocks.ts';

const run = (config: Record<string, string>) =>
  runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config,
    stackOutputs: endpointUpstreams(),
  });

test('a targetLoadRatio out of range stops the preview naming the key', async () => {
  await expect(run({ 'kokoro-endpoint:targetLoadRatio': '1.5' })).rejects.toThrow(
    /config 'targetLoadRatio' must be 0.1 to 1 .*, not 1.5/,
  );
});
