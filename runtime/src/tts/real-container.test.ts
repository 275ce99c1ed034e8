// The shared transport suite against the real container (protocol v1 server, kokoro-js, ONNX
// runtime) on the stand-in model: direct WebSocket, and both SageMaker calls through the local router.
import { afterAll } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@kokoro-speech/container';
import type { RunningServer } from '@kokoro-speech/container';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { TEST_RESPONSE_PART_BYTES } from '../testing/routed-fake.ts';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startCutProxy } from '../testing/cut-proxy.ts';
import type { CutProxy } from '../testing/cut-proxy.ts';
import { transportSuite } from '../testing/transport-suite.ts';
import type { SuiteTarget } from '../testing/transport-suite.ts';
import { SageMakerBidiTransport } from './sagemaker-bidi-transport.ts';
import { SageMakerResponseStreamTransport } from './response-stream-transport.ts';
import { WebSocketTransport } from './websocket-transport.ts';
import type { TtsTransport } from './types.ts';

// One container for the three suites (loading and closing the ONNX engine once), on a fresh
// stand-in model folder; a router and a proxy per suite.
let shared: Promise<{ container: RunningServer; dir: string }> | undefined;
function sharedContainer(): Promise<{ container: RunningServer; dir: string }> {
  shared ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-runtime-'));
    await writeFixtureModel(dir);
    return { container: await startServer({ modelDir: dir, config: { dtype: 'fp32' } }), dir };
  })();
  return shared;
}
afterAll(async () => {
  if (!shared) return;
  const { container, dir } = await shared;
  await container.close();
  await rm(dir, { recursive: true, force: true });
});

async function realTarget(
  make: (url: {
    container: RunningServer;
    router: LocalSageMakerRouter;
    proxied: string;
    direct: boolean;
  }) => TtsTransport,
  through: 'container' | 'router',
): Promise<SuiteTarget> {
  const { container } = await sharedContainer();
  const router = await startLocalSageMakerRouter({
    containerUrl: container.url,
    endpointName: 'kokoro',
    maxResponsePartBytes: TEST_RESPONSE_PART_BYTES,
  });
  const proxy: CutProxy = await startCutProxy(through === 'container' ? container.port : router.port);
  return {
    transport: make({ container, router, proxied: '', direct: true }),
    viaProxy: make({ container, router, proxied: `127.0.0.1:${proxy.port}`, direct: false }),
    proxy,
    close: async () => {
      await proxy.close();
      await router.close();
    },
  };
}

const sagemaker = { endpointName: 'kokoro', region: 'us-east-1', credentials: LOCAL_CREDENTIALS };

transportSuite(
  'websocket (real container, stand-in model)',
  () =>
    realTarget(
      ({ container, proxied, direct }) => new WebSocketTransport({ url: direct ? container.wsUrl : `ws://${proxied}` }),
      'container',
    ),
  { pipelined: 10 },
);

transportSuite(
  'sagemaker-bidi (local router, real container, stand-in model)',
  () =>
    realTarget(
      ({ router, proxied, direct }) =>
        new SageMakerBidiTransport({ ...sagemaker, endpoint: direct ? router.url : `http://${proxied}` }),
      'router',
    ),
  { pipelined: 10 },
);

transportSuite(
  'sagemaker-response-stream (local router, real container, stand-in model)',
  () =>
    realTarget(
      ({ router, proxied, direct }) =>
        new SageMakerResponseStreamTransport({ ...sagemaker, endpoint: direct ? router.url : `http://${proxied}` }),
      'router',
    ),
  { pipelined: 10 },
);
