// Runs the real server entry (src/main.ts) in a child process: the benchmarks' servers (so the
// load client does not share their event loop) and the instances of `npm start --instances N`.
// Reports the port it bound, its peak memory, and can stop it gracefully or kill it outright.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
/** The benchmarks' entry: main.ts plus SIMULATED_DELAY_* and SCHEDULER (src/testing/bench-main.ts). */
const BENCH_MAIN = fileURLToPath(new URL('../testing/bench-main.ts', import.meta.url));

export interface ServerProcess {
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  pid: number;
  /** Peak resident memory so far (VmHWM), in MiB; null where /proc is missing. */
  peakRssMiB(): Promise<number | null>;
  /** SIGTERM (graceful shutdown) and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: the instance dies at once, as a crashed one would. */
  kill(): Promise<void>;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
}

export interface ServerProcessOptions {
  /** Every JSON line the server writes on stdout (its logs and metric lines). */
  onLine?: (entry: Record<string, unknown>) => void;
  /** Run the benchmarks' entry, which reads SIMULATED_DELAY_* and SCHEDULER (default: main.ts). */
  bench?: boolean;
}

/** Starts `node src/main.ts serve` with these variables (HOST 127.0.0.1, PORT 0 unless given). */
export async function startServerProcess(
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [options.bench ? BENCH_MAIN : MAIN, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let bound = 0;
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let entry: { stage?: string; port?: number; level?: number; msg?: string };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      options.onLine?.(entry as Record<string, unknown>);
      if (entry.stage === 'listen' && entry.port) bound = entry.port;
      if (entry.stage === 'ready') resolve(bound);
      if ((entry.level ?? 0) >= 50) reject(new Error(`server failed: ${line}`));
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before it was ready`)));
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    exited,
    async peakRssMiB() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Math.round(Number(kb) / 1024) : null;
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}
