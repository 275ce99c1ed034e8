// Test support for the agent-runtime program's suites: it run under Pulumi mocks on the foundation
// outputs those suites share (Transcribe for STT, one Bedrock model), with a suite's own config and
// the other stacks it reads.
import { foundationOutputs } from '../shared/outputs.ts';
import { fakeOutputs, organization, region, runProgram, type ProgramRun, type RunOptions } from './mocks.ts';

export const FOUNDATION_STACK = `${organization}/kokoro-foundation/dev`;

/** The foundation stack's outputs as the agent-runtime suites give them; `overrides` on top. */
export const agentFoundation = (overrides: Record<string, unknown> = {}) =>
  fakeOutputs(foundationOutputs, {
    sttProvider: 'transcribe',
    region,
    bedrockModelIds: ['us.anthropic.claude-haiku-4-5-20251001-v1:0'],
    ...overrides,
  });

/** Runs stacks/agent-runtime/index.ts with `config` (keys without the project) and `stackOutputs`. */
export function runAgentRuntime(options: {
  config?: Record<string, string>;
  stackOutputs: NonNullable<RunOptions['stackOutputs']>;
}): Promise<ProgramRun> {
  const config = Object.fromEntries(
    Object.entries(options.config ?? {}).map(([key, value]) => [`kokoro-agent-runtime:${key}`, value]),
  );
  return runProgram(new URL('../agent-runtime/index.ts', import.meta.url), {
    project: 'kokoro-agent-runtime',
    config,
    stackOutputs: options.stackOutputs,
  });
}
