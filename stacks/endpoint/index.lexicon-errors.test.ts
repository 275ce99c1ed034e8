// endpoint under Pulumi mocks with a malformed lexicon and a revision without a lexicon: the preview
// stops before any resource is declared, naming the key (each program runs once per file, so the
// other malformed values are checked on parseLexiconSetting itself in lexicon.test.ts).
import { expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { runProgram } from '../testing/mocks.ts';

test('a lexicon that is no S3 URI is refused at preview, naming the key', async () => {
  const run = runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    preview: true,
    config: { 'kokoro-endpoint:lexicon': 'https://example.com/lexicon.json', 'kokoro-endpoint:lexiconRevision': '2' },
    stackOutputs: endpointUpstreams(),
  });
  await expect(run).rejects.toThrow(
    "config 'lexicon' must be s3://bucket/key or a key in the foundation's weights bucket, got 'https://example.com/lexicon.json'",
  );
});
