// The checks a layer makes before declaring anything: a producer's output, read as a value (with
// the layer to update named when it is missing), and the foundation's region against the layer's.
import { beforeAll, describe, expect, test } from '@jest/globals';
import * as pulumi from '@pulumi/pulumi';
import { mockEngine, organization } from '../testing/mocks.ts';
import { checkSameRegion, requireFoundationRegion, requireProducerOutput } from './index.ts';

const foundation = (stack: string) =>
  new pulumi.StackReference(stack, { name: `${organization}/kokoro-foundation/${stack}` });

beforeAll(async () => {
  await mockEngine({
    project: 'kokoro-endpoint',
    stackOutputs: {
      [`${organization}/kokoro-foundation/same`]: { region: 'us-east-1' },
      [`${organization}/kokoro-foundation/other`]: { region: 'eu-west-1' },
      [`${organization}/kokoro-foundation/old`]: { weightsBucketName: 'b' },
    },
  });
});

describe('requireFoundationRegion', () => {
  test("returns the layer's region when it is the foundation's", async () => {
    await expect(requireFoundationRegion(foundation('same'))).resolves.toBe('us-east-1');
  });

  test('refuses another region, naming aws:region and foundationStack', async () => {
    await expect(requireFoundationRegion(foundation('other'))).rejects.toThrow(
      `config 'aws:region' is us-east-1, but the foundation stack ${organization}/kokoro-foundation/other is in eu-west-1`,
    );
  });

  test('tells to update a foundation deployed before it exported its region', async () => {
    await expect(requireFoundationRegion(foundation('old'))).rejects.toThrow(
      `stack ${organization}/kokoro-foundation/old exports no 'region': run \`pulumi up\` in stacks/foundation first`,
    );
  });
});

test('requireProducerOutput returns the value of an output that is there', async () => {
  await expect(requireProducerOutput(foundation('old'), 'weightsBucketName', 'stacks/foundation')).resolves.toBe('b');
});

test('checkSameRegion names the fix', () => {
  expect(checkSameRegion('eu-west-1', 'eu-west-1', 'f')).toBe('eu-west-1');
  expect(() => checkSameRegion('eu-west-1', 'us-east-1', 'acme/kokoro-foundation/dev')).toThrow(
    "(pulumi config set aws:region us-east-1), or point 'foundationStack' at a foundation in eu-west-1",
  );
});
