// The Kokoro container (stand-in model) as a real process, for tests and benchmarks that kill it
// and start it again on the same port: what a deploy or a crash does to the agent's TTS stream.
import { spawn, type ChildProcess } from 'node:child_process';
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

export class ContainerProcess {
  readonly port: number;
  readonly url: string;
  readonly wsUrl: string;
  readonly #dir: string;
  readonly #env: Record<string, string>;
  /** The container's benchmark entry (SIMULATED_DELAY_*, SCHEDULER) instead of its main.ts. */
  readonly #bench: boolean;
  #child: ChildProcess | null = null;

  private constructor(dir: string, port: number, env: Record<string, string>, bench: boolean) {
    this.#dir = dir;
    this.#env = env;
    this.#bench = bench;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.wsUrl = `ws://127.0.0.1:${port}/invocations-bidirectional-stream`;
  }

  /** Writes the stand-in model, starts the container on a free port and waits until it is healthy. */
  static async start(env: Record<string, string> = {}, options: { bench?: boolean } = {}): Promise<ContainerProcess> {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-process-'));
    await writeFixtureModel(dir);
    const container = new ContainerProcess(dir, await freePort(), env, options.bench === true);
    await container.restart();
    return container;
  }

  /** The process is running. */
  get running(): boolean {
    return this.#child !== null && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Kills the process (SIGKILL: a crash, no clean shutdown) and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }

  /** Starts the process on its port (again) and resolves once /ping answers 200. */
  async restart(): Promise<void> {
    if (this.running) throw new Error('the container is running');
    const entry = this.#bench ? 'testing/bench-main.ts' : 'main.ts';
    const main = fileURLToPath(import.meta.resolve('@kokoro-speech/container').replace(/index\.ts$/, entry));
    const child = spawn(process.execPath, [main, 'serve'], {
      env: {
        ...process.env,
        LOG_LEVEL: 'warn',
        ...this.#env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        KOKORO_MODEL_DIR: this.#dir,
        KOKORO_DTYPE: 'fp32',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.#child = child;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`the container exited with ${child.exitCode}`);
      const healthy = await fetch(`${this.url}/ping`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) return;
      if (i > 600) throw new Error('the container did not become healthy within 60 s');
      await sleep(50);
    }
  }

  async close(): Promise<void> {
    await this.kill('SIGTERM');
    await rm(this.#dir, { recursive: true, force: true });
  }
}
