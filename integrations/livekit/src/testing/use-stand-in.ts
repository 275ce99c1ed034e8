// A test file's stand-in (./stand-in.ts), started before its tests and closed after them.
import { afterAll, beforeAll } from '@jest/globals';
import { startStandIn } from './stand-in.ts';
import type { StandIn } from './stand-in.ts';

/** Call at the top level of a test file; the getter gives the stand-in inside its tests. */
export function useStandIn(...args: Parameters<typeof startStandIn>): () => StandIn {
  let standIn: StandIn | undefined;
  beforeAll(async () => {
    standIn = await startStandIn(...args);
  }, 60_000);
  afterAll(() => standIn?.close());
  return () => standIn!;
}
