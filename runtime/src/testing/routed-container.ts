// A real test container (harness.ts) behind the local SageMaker router, and where the agent's
// SageMaker transports find it: the end-to-end tests' TTS over every transport the agent has.
import { afterAll, beforeAll } from '@jest/globals';
import {
  startLocalSageMakerRouter,
  type LocalSageMakerRouter,
  type LocalSageMakerRouterOptions,
} from '@kokoro-speech/sagemaker/router';
import type { LlmProvider } from '../llm/types.ts';
import { startAgentServer, type AgentServer, type AgentServerOptions } from '../server/app.ts';
import { SageMakerBidiTransport } from '../tts/sagemaker-bidi-transport.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import type { TtsTransport } from '../tts/types.ts';
import { startTestContainer, type TestContainer } from './harness.ts';
import { localEndpoint, TEST_RESPONSE_PART_BYTES } from './routed-fake.ts';

export { localEndpoint };

export interface RoutedContainer {
  container: TestContainer;
  router: LocalSageMakerRouter;
  /** The router, then the container. */
  close(): Promise<void>;
}

/** The router's settings unless a test names its own: larger messages in parts. */
const IN_PARTS = { maxResponsePartBytes: TEST_RESPONSE_PART_BYTES };

/** A test container behind the local router (by default its larger messages in parts). */
export async function startRoutedContainer(
  routerOptions: Partial<LocalSageMakerRouterOptions> = IN_PARTS,
): Promise<RoutedContainer> {
  const container = await startTestContainer();
  const router = await startLocalSageMakerRouter({ ...routerOptions, containerUrl: container.server.url }).catch(
    async (error: unknown) => {
      await container.close();
      throw error;
    },
  );
  return {
    container,
    router,
    close: async () => {
      await router.close();
      await container.close();
    },
  };
}

/**
 * For a test file: a routed test container for all its tests, and agent servers on `llm` started
 * on demand, closed with it after the last test.
 */
export function routedAgents(llm: LlmProvider, routerOptions: Partial<LocalSageMakerRouterOptions> = IN_PARTS) {
  let routed: RoutedContainer | undefined;
  const agents: AgentServer[] = [];
  beforeAll(async () => void (routed = await startRoutedContainer(routerOptions)));
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await routed?.close();
  });
  return {
    routed: () => routed!,
    /** A transport straight to the container's WebSocket. */
    direct: () => new WebSocketTransport({ url: routed!.container.server.wsUrl }),
    /** The SageMaker bidirectional stream through the local router. */
    bidi: () => new SageMakerBidiTransport(localEndpoint(routed!.router)),
    agent: async (tts: TtsTransport, extra: Partial<AgentServerOptions> = {}) => {
      const server = await startAgentServer({ llm, tts, ...extra });
      agents.push(server);
      return server;
    },
  };
}
