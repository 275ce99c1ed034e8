// Real signals to a real process: the handlers run as they would under `docker stop` or Ctrl-C.
import { describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';

const SHUTDOWN = new URL('./shutdown.ts', import.meta.url).href;

/** A child that installs the handlers with a close() that takes `closeMs` (or fails), then signals itself. */
function run(options: { signals: string[]; closeMs?: number; fail?: boolean; second?: boolean }) {
  const script = `
    import { handleShutdownSignals } from ${JSON.stringify(SHUTDOWN)};
    let closes = 0;
    handleShutdownSignals({
      close: () => { closes++; return new Promise((resolve, reject) => setTimeout(() => ${options.fail ? "reject(new Error('socket stuck'))" : 'resolve()'}, ${options.closeMs ?? 0})); },
      onSignal: (s) => console.log('signal', s),
      onClosed: () => console.log('closed', closes),
      onError: (e) => console.log('error', e.message),
      ${options.second ? "onSecondSignal: () => console.log('second')," : ''}
    });
    for (const s of ${JSON.stringify(options.signals)}) { process.kill(process.pid, s); await new Promise((r) => setTimeout(r, 30)); }
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    child.on('exit', (code) => resolve({ code, lines: out.trim().split('\n') })),
  );
}

describe('handleShutdownSignals', () => {
  test('SIGTERM closes once and exits 0; a second signal while closing is ignored', async () => {
    const { code, lines } = await run({ signals: ['SIGTERM', 'SIGTERM'], closeMs: 300 });
    expect(code).toBe(0);
    expect(lines).toEqual(['signal SIGTERM', 'closed 1']);
  });

  test('a failed close exits 1 and says why', async () => {
    const { code, lines } = await run({ signals: ['SIGINT'], fail: true });
    expect(code).toBe(1);
    expect(lines).toEqual(['signal SIGINT', 'error socket stuck']);
  });

  test('with onSecondSignal, a second signal while closing exits 130 at once', async () => {
    const { code, lines } = await run({ signals: ['SIGINT', 'SIGINT'], closeMs: 60_000, second: true });
    expect(code).toBe(130);
    expect(lines).toEqual(['signal SIGINT', 'second']);
  });
});
