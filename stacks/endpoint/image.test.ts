// The Kokoro image this stack builds (container/Dockerfile), as SageMaker expects it: both targets
// run as root (AWS's custom inference code page: SageMaker expects containers to run as root), are
// labelled for bidirectional streaming, and start as `docker run IMAGE serve` does.
import { describe, expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { dockerfileStages } from '../testing/dockerfile.ts';

const stages = dockerfileStages(fileURLToPath(new URL('../../container/Dockerfile', import.meta.url)));

describe.each(['cpu', 'gpu'])('the %s target', (target) => {
  const stage = stages.find((s) => s.name === target)!;

  test('runs as root: no USER instruction', () => {
    expect(stage).toBeDefined();
    expect(stage.instructions.filter((i) => i.keyword === 'USER')).toEqual([]);
  });

  test('carries the bidirectional-streaming label and the serve entry point', () => {
    expect(stage.instructions).toContainEqual({
      keyword: 'LABEL',
      args: 'com.amazonaws.sagemaker.capabilities.bidirectional-streaming=true',
    });
    expect(stage.instructions).toContainEqual({ keyword: 'ENTRYPOINT', args: '["node", "container/src/main.ts"]' });
    expect(stage.instructions).toContainEqual({ keyword: 'CMD', args: '["serve"]' });
  });
});
