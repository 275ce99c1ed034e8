// The entry point as a process: configuration from the environment, a turn, a clean SIGTERM exit.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestContainer, type TestContainer } from './testing/harness.ts';
import { sseTurn } from './testing/turn-clients.ts';
import { OtlpReceiver } from '@kokoro-speech/protocol/otlp-receiver';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
let container: TestContainer;
beforeAll(async () => (container = await startTestContainer()));
afterAll(async () => container?.close());

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, exited, lines, output: () => ({ stdout, stderr }) };
}

test('starts from the environment, announces the echo model, answers a turn, exits 0 on SIGTERM', async () => {
  const p = run({
    KOKORO_URL: container.server.wsUrl,
    LLM_PROVIDER: 'echo',
    ECHO_FIRST_TOKEN_MS: '0',
    ECHO_TOKENS_PER_SECOND: '2000',
  });
  let listening: Record<string, unknown> | undefined;
  while (!(listening = p.lines().find((l) => l.msg === 'agent server listening'))) {
    if (p.child.exitCode !== null) throw new Error(`exited early: ${JSON.stringify(p.output())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(p.lines().find((l) => l.level === 40)).toMatchObject({ msg: expect.stringMatching(/LLM_PROVIDER=echo/) });
  const { status, events } = await sseTurn(`http://127.0.0.1:${listening.port}`, {
    prompt: 'Hello from the process. Bye.',
  });
  expect(status).toBe(200);
  expect(events.at(-1)).toEqual({ type: 'done' });
  expect(events.some((e) => e.type === 'audio')).toBe(true);
  p.child.kill('SIGTERM');
  expect(await p.exited).toBe(0);
  expect(p.lines().some((l) => l.msg === 'turn' && l.outcome === 'completed')).toBe(true);
  // Metrics and traces are off by default: no EMF line, no tracing.
  expect(p.lines().filter((l) => '_aws' in l || l.msg === 'tracing on')).toEqual([]);
});

test('AGENT_METRICS=emf and an OTLP endpoint: a metrics line on stdout and the trace at the receiver, per turn', async () => {
  const receiver = await OtlpReceiver.start();
  const p = run({
    KOKORO_URL: container.server.wsUrl,
    LLM_PROVIDER: 'echo',
    ECHO_FIRST_TOKEN_MS: '0',
    AGENT_METRICS: 'emf',
    METRICS_SERVICE: 'voice-test',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: '20',
  });
  try {
    let listening: Record<string, unknown> | undefined;
    while (!(listening = p.lines().find((l) => l.msg === 'agent server listening'))) {
      if (p.child.exitCode !== null) throw new Error(`exited early: ${JSON.stringify(p.output())}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(p.lines().find((l) => l.msg === 'tracing on')).toMatchObject({ traces: receiver.tracesUrl });
    const { events } = await sseTurn(`http://127.0.0.1:${listening.port}`, { prompt: 'Measured. Traced.' });
    expect(events.at(-1)).toEqual({ type: 'done' });
    await receiver.waitFor((spans) => spans.some((s) => s.name === 'kokoro.turn' && s.service === 'kokoro-agent'));
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    const emf = p.lines().filter((l) => '_aws' in l);
    expect(emf).toHaveLength(1);
    expect(emf[0]).toMatchObject({ Service: 'voice-test', Turns: 1, Interruptions: 0, TtsRefusals: 0, CallerDrops: 0 });
  } finally {
    if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await receiver.close();
  }
});

test('a bad environment exits 2 with the problems named', async () => {
  const p = run({ LLM_PROVIDER: 'openai' });
  expect(await p.exited).toBe(2);
  expect(p.output().stderr).toMatch(/no TTS endpoint.*; LLM_PROVIDER=openai needs OPENAI_BASE_URL/);
});
