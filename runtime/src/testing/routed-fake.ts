// The fake peer behind the local SageMaker router: what both SageMaker transports are tested
// against, in the shared suite (with a cut proxy in front of the router) and in their own tests.
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter, LocalSageMakerRouterOptions } from '@kokoro-speech/sagemaker/router';
import type { TtsTransport } from '../tts/types.ts';
import { startCutProxy } from './cut-proxy.ts';
import { fakeAudio, startFakeContainer } from '@kokoro-speech/protocol/testing';
import type { FakeContainer, FakeContainerOptions } from '@kokoro-speech/protocol/testing';
import type { SuiteTarget } from './transport-collect.ts';

export interface RoutedFake {
  fake: FakeContainer;
  router: LocalSageMakerRouter;
  close(): Promise<void>;
}

/**
 * Container messages above this size come back as PARTIAL..COMPLETE parts in every routed test, so
 * that the clients' re-assembly is always exercised (some JSON messages fit, audio frames never do).
 */
export const TEST_RESPONSE_PART_BYTES = 100;

/** The SageMaker transports' options for a local router (one started without an endpoint name takes any). */
export const localEndpoint = (router: { url: string }, endpointName = 'kokoro-local') => ({
  endpointName,
  region: 'us-east-1',
  endpoint: router.url,
  credentials: LOCAL_CREDENTIALS,
});

/** `endpointName`, when given, is the only endpoint the router accepts. */
export async function startRoutedFake(
  endpointName?: string,
  options: { router?: Partial<LocalSageMakerRouterOptions>; container?: FakeContainerOptions } = {},
): Promise<RoutedFake> {
  const fake = await startFakeContainer(options.container);
  const router = await startLocalSageMakerRouter({
    containerUrl: fake.url,
    maxResponsePartBytes: TEST_RESPONSE_PART_BYTES,
    ...(endpointName && { endpointName }),
    ...options.router,
  });
  return {
    fake,
    router,
    close: async () => {
      await router.close();
      await fake.close();
    },
  };
}

/** The shared suite's target; `make` builds the transport for a router URL. */
export async function routedFakeTarget(make: (endpoint: string) => TtsTransport): Promise<SuiteTarget> {
  const peer = await startRoutedFake('kokoro');
  const proxy = await startCutProxy(peer.router.port);
  return {
    transport: make(peer.router.url),
    viaProxy: make(`http://127.0.0.1:${proxy.port}`),
    proxy,
    expectedSamples: (text, rate) => fakeAudio(text, rate).length / 2,
    close: async () => {
      await proxy.close();
      await peer.close();
    },
  };
}
