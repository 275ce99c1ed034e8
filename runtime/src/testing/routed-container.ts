// A real test container (harness.ts) behind the local SageMaker router, and where the agent's
// SageMaker transports find it: the end-to-end tests' TTS over every transport the agent has.
import { startLocalSageMakerRouter, type LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startTestContainer, type TestContainer } from './harness.ts';
import { TEST_RESPONSE_PART_BYTES } from './routed-fake.ts';

export { localEndpoint } from './routed-fake.ts';

export interface RoutedContainer {
  container: TestContainer;
  router: LocalSageMakerRouter;
  /** The router, then the container. */
  close(): Promise<void>;
}

/** A test container behind the local router, its larger messages in parts (TEST_RESPONSE_PART_BYTES). */
export async function startRoutedContainer(): Promise<RoutedContainer> {
  const container = await startTestContainer();
  const router = await startLocalSageMakerRouter({
    containerUrl: container.server.url,
    maxResponsePartBytes: TEST_RESPONSE_PART_BYTES,
  }).catch(async (error: unknown) => {
    await container.close();
    throw error;
  });
  return {
    container,
    router,
    close: async () => {
      await router.close();
      await container.close();
    },
  };
}
