// Runs the Kokoro container (stand-in model) in its own process for the benchmark, as in
// production, so that its CPU work does not share the agent's event loop.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startContainerProcess(
  env: Record<string, string>,
): Promise<{ url: string; wsUrl: string; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'kokoro-bench-'));
  await writeFixtureModel(dir);
  const port = await freePort();
  const main = fileURLToPath(import.meta.resolve('@kokoro-speech/container').replace(/index\.ts$/, 'main.ts'));
  const child = spawn(process.execPath, [main, 'serve'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      KOKORO_MODEL_DIR: dir,
      KOKORO_DTYPE: 'fp32',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`container exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error('container did not become healthy within 60 s');
    await sleep(100);
  }
  return {
    url,
    wsUrl: `ws://127.0.0.1:${port}/invocations-bidirectional-stream`,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
