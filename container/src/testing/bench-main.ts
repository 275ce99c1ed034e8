// The benchmarks' container entry (`node src/testing/bench-main.ts serve`): the real server
// (serve.ts, as main.ts runs it) plus what only a benchmark's comparison needs, from variables of
// its own: SIMULATED_DELAY_MS and SIMULATED_DELAY_PER_CHAR_MS (a GPU's per-piece latency on the
// fast stand-in) and SCHEDULER=fifo (the load benchmark's baseline order). The image runs main.ts.
import { z } from 'zod';
import { ConfigError, envEnum, envNumber, parseEnv } from '@kokoro-speech/protocol/env';
import { serve } from '../serve.ts';
import { fifoPolicy } from './fifo.ts';
import { withSimulatedDelay } from './simulated-delay.ts';

const benchEnv = z.object({
  SIMULATED_DELAY_MS: envNumber(0).default(0),
  SIMULATED_DELAY_PER_CHAR_MS: envNumber(0).default(0),
  SCHEDULER: envEnum(['deadline', 'fifo']).default('deadline'),
});

let e: z.infer<typeof benchEnv>;
try {
  e = parseEnv(benchEnv, process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`kokoro bench server: ${error.message}`);
  process.exit(2);
}
await serve({
  wrapEngine: (engine) => withSimulatedDelay(engine, e.SIMULATED_DELAY_MS, e.SIMULATED_DELAY_PER_CHAR_MS),
  ...(e.SCHEDULER === 'fifo' ? { schedulingPolicy: fifoPolicy } : {}),
});
