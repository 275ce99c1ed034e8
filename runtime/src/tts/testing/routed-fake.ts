// The suite target of both SageMaker transports: the fake peer behind the local SageMaker router,
// with a cut proxy in front of the router. `make` builds the transport for a router URL.
import { startLocalSageMakerRouter } from '../../local-sagemaker/index.ts';
import type { TtsTransport } from '../types.ts';
import { startCutProxy } from './cut-proxy.ts';
import { fakeAudio, startFakeContainer } from './fake-container.ts';
import type { SuiteTarget } from './transport-suite.ts';

export async function routedFakeTarget(make: (endpoint: string) => TtsTransport): Promise<SuiteTarget> {
  const fake = await startFakeContainer();
  const router = await startLocalSageMakerRouter({ containerUrl: fake.url, endpointName: 'kokoro' });
  const proxy = await startCutProxy(router.port);
  return {
    transport: make(router.url),
    viaProxy: make(`http://127.0.0.1:${proxy.port}`),
    proxy,
    expectedSamples: (text, rate) => fakeAudio(text, rate).length / 2,
    close: async () => { await proxy.close(); await router.close(); await fake.close(); },
  };
}
