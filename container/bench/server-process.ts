// Runs the real server entry (src/main.ts) in a child process for the benchmark, so the load
// client does not share its event loop; reports the port it bound and its peak memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface ServerProcess {
  port: number;
  /** Peak resident memory so far (VmHWM), in MiB; null where /proc is missing. */
  peakRssMiB(): Promise<number | null>;
  stop(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [MAIN, 'serve'], {
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
      if (entry.stage === 'listen' && entry.port) bound = entry.port;
      if (entry.stage === 'ready') resolve(bound);
      if ((entry.level ?? 0) >= 50) reject(new Error(`server failed: ${line}`));
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before it was ready`)));
  });
  return {
    port,
    async peakRssMiB() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
      return kb ? Math.round(Number(kb) / 1024) : null;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
