// What each TTS transport costs for the same utterances on loopback: the real container on the
// stand-in model, the SageMaker calls through the local router. Prints time to open, to first
// audio and to the end of the answer, bytes on the wire, process CPU, and the per-event cost of
// encoding + signing (client) and verifying (router) SageMaker events.
// Run: npm exec -- node runtime/bench/transports.ts   (ROUNDS=n rounds, default 15; PEER=fake: no model)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@kokoro-speech/container';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { EventVerifier } from '@kokoro-speech/sagemaker/router';
import { codec, encodePayloadPart } from '@kokoro-speech/sagemaker';
import { createSigner } from '@kokoro-speech/sagemaker';
import { createTransport } from '../src/tts/index.ts';
import type { TransportConfig } from '../src/tts/index.ts';
import { startCutProxy } from '../src/testing/cut-proxy.ts';
import { startFakeContainer } from '@kokoro-speech/protocol/testing';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const ANSWER = [
  'Sure, here is what I found about your order.',
  'It shipped yesterday from our warehouse in Leeds and should arrive on Thursday.',
  'The tracking number is in the confirmation e-mail we sent you.',
  'If it does not arrive by Friday, reply to that e-mail and we will send a replacement.',
  'Is there anything else I can help you with today?',
];
const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// PEER=fake swaps the container for the tests' protocol-v1 peer (no model, no scheduler), which
// isolates what the transports themselves cost.
const PEER = process.env.PEER === 'fake' ? 'fake' : 'container';
const dir = await mkdtemp(join(tmpdir(), 'kokoro-bench-'));
await writeFixtureModel(dir);
const container =
  PEER === 'fake'
    ? await (async () => {
        const fake = await startFakeContainer();
        return { url: fake.url, port: Number(new URL(fake.url).port), close: fake.close };
      })()
    : await startServer({ modelDir: dir, config: { dtype: 'fp32' } });
const router = await startLocalSageMakerRouter({ containerUrl: container.url });
const sagemaker = { endpointName: 'kokoro', region: 'us-east-1', credentials: LOCAL_CREDENTIALS };

const kinds: Array<{ label: string; port: number; config: (hostPort: string) => TransportConfig }> = [
  { label: 'websocket (direct)', port: container.port, config: (hp) => ({ kind: 'websocket', url: `ws://${hp}` }) },
  {
    label: 'sagemaker-bidi (router)',
    port: router.port,
    config: (hp) => ({ kind: 'sagemaker-bidi', ...sagemaker, endpoint: `http://${hp}` }),
  },
  {
    label: 'sagemaker-response-stream (router)',
    port: router.port,
    config: (hp) => ({ kind: 'sagemaker-response-stream', ...sagemaker, endpoint: `http://${hp}` }),
  },
];

console.log(`peer: ${PEER === 'fake' ? 'the test peer (no model)' : 'the real container on the stand-in model'}`);
console.log(
  `transports on loopback: ${ANSWER.length} utterances (${ANSWER.join(' ').length} chars), pcm_s16le 24 kHz, ${ROUNDS} rounds (transports interleaved) + 1 warm-up, p50`,
);
type Row = { open: number; first: number; total: number; up: number; down: number; audio: number; cpu: number };
const runs = await Promise.all(
  kinds.map(async (kind) => {
    const proxy = await startCutProxy(kind.port);
    return { kind, proxy, transport: createTransport(kind.config(`127.0.0.1:${proxy.port}`)), rows: [] as Row[] };
  }),
);
for (let round = 0; round <= ROUNDS; round++) {
  for (const run of runs) {
    const { proxy, transport } = run;
    const before = { ...proxy.bytes };
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const session = await transport.open({ format: 'pcm_s16le', sample_rate: 24000 });
    const opened = performance.now();
    let first = 0;
    let audio = 0;
    const reading = (async () => {
      for await (const event of session.events()) {
        if (event.type === 'audio') {
          first ||= performance.now();
          audio += event.data.byteLength;
        }
      }
    })();
    for (const text of ANSWER) session.speak(text);
    await session.end();
    await reading;
    const end = performance.now();
    session.close();
    const used = process.cpuUsage(cpu);
    if (round === 0) continue; // warm-up
    run.rows.push({
      open: opened - t0,
      first: first - opened,
      total: end - opened,
      up: proxy.bytes.up - before.up,
      down: proxy.bytes.down - before.down,
      audio,
      cpu: (used.user + used.system) / 1000,
    });
  }
}
console.log(
  'transport                            open ms  first audio ms  total ms  wire KiB up/down  audio KiB  overhead  CPU ms/answer',
);
for (const { kind, proxy, rows } of runs) {
  await proxy.close();
  const row = (key: keyof Row) => p50(rows.map((r) => r[key]));
  const overhead = ((row('up') + row('down')) / row('audio') - 1) * 100;
  console.log(
    `${kind.label.padEnd(36)} ${row('open').toFixed(1).padStart(7)}  ${row('first').toFixed(1).padStart(14)}  ${row('total').toFixed(0).padStart(8)}  ` +
      `${(row('up') / 1024).toFixed(1).padStart(7)} / ${(row('down') / 1024).toFixed(1).padEnd(7)}  ${(row('audio') / 1024).toFixed(1).padStart(9)}  ${overhead.toFixed(2).padStart(7)}%  ${row('cpu').toFixed(0).padStart(13)}`,
  );
}
console.log(
  '(first audio: from the session being open to the first audio event; CPU: this whole process, container included)',
);
await router.close();
await container.close();
await rm(dir, { recursive: true, force: true });

// Per-event cost of the SageMaker event signing chain, as the client and the router pay it.
const signer = createSigner(LOCAL_CREDENTIALS, 'us-east-1');
console.log('\nSageMaker event cost (node:crypto SHA-256), per event:');
for (const size of [120, 32 * 1024]) {
  const inner = encodePayloadPart({ bytes: new Uint8Array(size), dataType: size > 1000 ? 'BINARY' : 'UTF8' });
  const N = size > 1000 ? 1000 : 4000;
  let prior = '0'.repeat(64);
  const outer: Uint8Array[] = [];
  let t = performance.now();
  for (let i = 0; i < N; i++) {
    const date = { ':date': { type: 'timestamp' as const, value: new Date() } };
    const { signature } = await signer.sign(
      { message: { headers: date, body: inner }, priorSignature: prior },
      { signingDate: date[':date'].value },
    );
    prior = signature;
    outer.push(
      codec.encode({
        headers: { ...date, ':chunk-signature': { type: 'binary', value: Buffer.from(signature, 'hex') } },
        body: inner,
      }),
    );
  }
  const signUs = ((performance.now() - t) / N) * 1000;
  const verifier = new EventVerifier({
    signature: '0'.repeat(64),
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
  });
  t = performance.now();
  for (const message of outer) await verifier.verify(codec.decode(message));
  const verifyUs = ((performance.now() - t) / N) * 1000;
  const framing = outer[0]!.byteLength - size;
  console.log(
    `  payload ${String(size).padStart(6)} B: encode+sign ${signUs.toFixed(1)} us, decode+verify ${verifyUs.toFixed(1)} us, framing ${framing} B (${((framing / size) * 100).toFixed(1)}%)`,
  );
}
