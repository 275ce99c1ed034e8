// The agent image this stack builds (runtime/Dockerfile) can be built where Pulumi Deployments
// builds it, an x86_64 executor without arm64 emulation: every command runs in a stage on the
// build platform, and the linux/arm64 stage that ships only copies files.
import { expect, test } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { dockerfileStages } from '../testing/dockerfile.ts';

const stages = dockerfileStages(fileURLToPath(new URL('../../runtime/Dockerfile', import.meta.url)));
const final = stages.at(-1)!;

test('the shipped stage is linux/arm64 and runs no command at build time', () => {
  expect(final.platform).toBe('linux/arm64');
  expect(final.instructions.filter((i) => i.keyword === 'RUN')).toEqual([]);
});

test('every stage that runs a command runs on the build platform', () => {
  const running = stages.filter((s) => s.instructions.some((i) => i.keyword === 'RUN'));
  expect(running.length).toBeGreaterThan(0);
  for (const stage of running) expect(stage.platform).toBe('$BUILDPLATFORM');
});

test('the dependencies come from that stage, and the agent runs as the image user node on port 8080', () => {
  const deps = stages.find((s) => s.platform === '$BUILDPLATFORM')!;
  expect(final.instructions).toContainEqual({ keyword: 'COPY', args: `--from=${deps.name} /app /app` });
  expect(final.instructions).toContainEqual({ keyword: 'USER', args: 'node' });
  expect(final.instructions).toContainEqual({ keyword: 'EXPOSE', args: '8080' });
});
