// endpoint under Pulumi mocks with a lexicon in a bucket of its own and a lexiconRevision: GetObject
// on that one object and no KMS grant (the foundation's key does not encrypt it), and the revision
// in the model's environment (so a new one replaces the model and rolls the endpoint).
import { expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { runProgram } from '../testing/mocks.ts';

const runWith = (config: Record<string, string>) =>
  runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config: Object.fromEntries(Object.entries(config).map(([k, v]) => [`kokoro-endpoint:${k}`, v])),
    stackOutputs: endpointUpstreams(),
  });

test('another bucket: GetObject on that object only (no key of ours), and a revision rolls the model', async () => {
  const run = await runWith({
    lexicon: 's3://team-speech.assets/tts/lexicon v2.json',
    lexiconRevision: '2026-12-06.1',
  });
  expect(run.find('aws:sagemaker/model:Model').inputs.primaryContainer.environment).toMatchObject({
    KOKORO_LEXICON: 's3://team-speech.assets/tts/lexicon v2.json',
    KOKORO_LEXICON_REVISION: '2026-12-06.1',
  });
  const documents = policyDocumentsOf(run.resources);
  expect(documents.map((d) => d.statements)).toEqual([
    [
      {
        Sid: 'ReadLexicon',
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: 'arn:aws:s3:::team-speech.assets/tts/lexicon v2.json',
      },
    ],
  ]);
  expect(await referenceProblems(documents)).toEqual([]);
  expect(await policyViolations(run.resources)).toEqual([]);
});
