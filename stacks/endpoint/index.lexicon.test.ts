// endpoint under Pulumi mocks with a lexicon: KOKORO_LEXICON in the model's environment, one inline
// policy on the foundation's SageMaker role reading exactly that object (and the foundation's key
// when the object is in its bucket), declared before the model, and bad values refused at preview.
import { describe, expect, test } from '@jest/globals';
import { endpointUpstreams } from '../testing/endpoint-upstreams.ts';
import { policyDocumentsOf, referenceProblems } from '../testing/iam-reference.ts';
import { policyViolations } from '../testing/policy-check.ts';
import { account, region, runProgram } from '../testing/mocks.ts';

const keyArn = `arn:aws:kms:${region}:${account}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;

const runWith = (config: Record<string, string>) =>
  runProgram(new URL('./index.ts', import.meta.url), {
    project: 'kokoro-endpoint',
    config: Object.fromEntries(Object.entries(config).map(([k, v]) => [`kokoro-endpoint:${k}`, v])),
    stackOutputs: endpointUpstreams(),
  });

describe('a key in the foundation bucket', () => {
  test('sets KOKORO_LEXICON and grants GetObject on that object and Decrypt on its key, before the model', async () => {
    const run = await runWith({ lexicon: 'lexicons/en-us.json' });
    const model = run.find('aws:sagemaker/model:Model');
    expect(model.inputs.primaryContainer.environment).toMatchObject({
      KOKORO_LEXICON: 's3://weights-bucket/lexicons/en-us.json',
    });
    expect('KOKORO_LEXICON_REVISION' in model.inputs.primaryContainer.environment).toBe(false);

    const grant = run.find('aws:iam/rolePolicy:RolePolicy');
    expect(grant.inputs.role).toBe('kokoro-dev-sagemaker-role-0a1b2c3');
    expect(JSON.parse(grant.inputs.policy).Statement).toEqual([
      {
        Sid: 'ReadLexicon',
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: 'arn:aws:s3:::weights-bucket/lexicons/en-us.json',
      },
      {
        Sid: 'DecryptLexicon',
        Effect: 'Allow',
        Action: ['kms:Decrypt'],
        Resource: keyArn,
        Condition: { StringEquals: { 'kms:ViaService': `s3.${region}.amazonaws.com` } },
      },
    ]);
    // The container reads the object at start: the grant must exist before the model.
    expect(model.dependencies).toContain(
      `urn:pulumi:dev::kokoro-endpoint::aws:iam/rolePolicy:RolePolicy::${grant.name}`,
    );

    const documents = policyDocumentsOf(run.resources);
    expect(documents).toHaveLength(1);
    expect(await referenceProblems(documents)).toEqual([]);
    expect(await policyViolations(run.resources)).toEqual([]);
  });
});
