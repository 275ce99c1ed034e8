// Starts what `npm start` runs, in order, and stops it in reverse: the Kokoro server (container),
// or N of them as separate processes (--instances), the local SageMaker router in front of it, the agent (talking to the router through the same
// bidirectional-stream client it uses on AWS), and the web server; or, with a runtime ARN or an
// agent URL, the web server alone in front of that agent.
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { startServer } from '@kokoro-speech/container';
import { startServerProcess } from '@kokoro-speech/container/process';
import { DEFAULT_SYSTEM_PROMPT } from '@kokoro-speech/runtime';
import { createLlmProvider, type LlmConfig } from '@kokoro-speech/runtime';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startAgentServer } from '@kokoro-speech/runtime';
import { SageMakerBidiTransport } from '@kokoro-speech/runtime';
import { AgentCoreTarget } from '../agentcore/agentcore.ts';
import { resolveModel, type LocalDtype } from './model.ts';
import type { LocalOptions } from './options.ts';
import { progressBar } from './progress.ts';
import { agentCoreUpstream, agentServerUpstream } from '../web-server/upstream.ts';
import { startWebServer, type PageInfo } from '../web-server/web-server.ts';

/** The endpoint name the agent asks the local router for (any name is routed to the one container). */
export const LOCAL_ENDPOINT_NAME = 'kokoro-local';
const LOCAL_REGION = 'us-east-1';

export interface LocalStack {
  url: string;
  port: number;
  info: PageInfo;
  /** The local SageMaker router in front of the containers (the local pipeline only). */
  router?: LocalSageMakerRouter;
  close(): Promise<void>;
}

export interface StackHooks {
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export async function startLocalStack(options: LocalOptions, hooks: StackHooks = {}): Promise<LocalStack> {
  const log = hooks.log ?? (() => {});
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse())
      await close().catch((err: unknown) => log(`shutdown: ${(err as Error).message}`));
  };
  try {
    let upstream;
    let info: PageInfo;
    let localRouter: LocalSageMakerRouter | undefined;
    if (options.target !== undefined) {
      const target = new AgentCoreTarget({
        arn: options.target,
        ...(options.qualifier === undefined ? {} : { qualifier: options.qualifier }),
      });
      upstream = agentCoreUpstream(target);
      info = {
        llm: { name: 'remote', description: 'as configured on the runtime' },
        model: { kind: 'remote', description: 'the deployed SageMaker endpoint' },
        target: { kind: 'agentcore', description: `AgentCore ${target.runtime.runtimeId} (${target.runtime.region})` },
      };
    } else if (options.agentUrl !== undefined) {
      upstream = agentServerUpstream(options.agentUrl);
      info = {
        llm: { name: 'remote', description: 'as configured on that agent' },
        model: { kind: 'remote', description: 'as configured on that agent' },
        target: { kind: 'agent', description: options.agentUrl.origin },
      };
    } else {
      const llmConfig = await chooseLlm(options, log);
      const model = await resolveModel({
        offline: options.offline,
        dtype: options.dtype,
        ...(options.modelDir === undefined ? {} : { modelDir: options.modelDir }),
        onProgress: progressBar(),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
      });
      closers.push(() => model.dispose());
      log(`loading ${model.description}${options.instances > 1 ? ` in ${options.instances} instances` : ''}...`);
      const containerUrls = await startContainers(options.instances, model, closers);
      const router = await startLocalSageMakerRouter({
        ...(containerUrls.length === 1 ? { containerUrl: containerUrls[0]! } : { containerUrls }),
        host: '127.0.0.1',
        port: 0,
      });
      closers.push(() => router.close());
      localRouter = router;
      const llm = createLlmProvider(llmConfig);
      // The same client code as on AWS: the SageMaker bidirectional stream, signed, to the router.
      const tts = new SageMakerBidiTransport({
        endpointName: LOCAL_ENDPOINT_NAME,
        region: LOCAL_REGION,
        endpoint: router.url,
        credentials: LOCAL_CREDENTIALS,
      });
      const agent = await startAgentServer({
        llm,
        tts,
        host: '127.0.0.1',
        port: 0,
        systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        ...(options.voice === undefined ? {} : { defaults: { voice: options.voice } }),
      });
      closers.push(() => agent.close());
      upstream = agentServerUpstream(new URL(agent.url));
      info = {
        llm: { name: llm.name, description: llm.name === 'echo' ? 'echo (repeats your prompt)' : llm.description },
        model: { kind: model.kind, description: model.description },
        target: { kind: 'local', description: 'local, through the SageMaker bidirectional stream' },
      };
    }
    const web = await startWebServer({ upstream, info, host: options.host, port: options.port });
    closers.push(() => web.close());
    if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1') {
      log(
        `warning: listening on ${options.host}, not only on loopback: anyone who can reach it can use your agent${options.target ? ' and your AWS credentials' : ''}`,
      );
    }
    return { url: web.url, port: web.port, info, ...(localRouter && { router: localRouter }), close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * The Kokoro containers, with admission control on as on SageMaker: one in this process, or
 * (instances > 1) one child process each, the real entry point, like separate instances.
 */
async function startContainers(
  instances: number,
  model: { dir: string; dtype: LocalDtype },
  closers: (() => Promise<void>)[],
): Promise<string[]> {
  if (instances === 1) {
    const container = await startServer({
      modelDir: model.dir,
      config: { dtype: model.dtype, logLevel: 'warn', admission: 'on' },
      host: '127.0.0.1',
      port: 0,
    });
    closers.push(() => container.close());
    return [container.url];
  }
  const started = await Promise.allSettled(
    Array.from({ length: instances }, () =>
      startServerProcess({ KOKORO_MODEL_DIR: model.dir, KOKORO_DTYPE: model.dtype, METRICS_INTERVAL_S: '0' }),
    ),
  );
  for (const result of started) if (result.status === 'fulfilled') closers.push(() => result.value.stop());
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return started.map((r) => (r as PromiseFulfilledResult<{ url: string }>).value.url);
}

/** Bedrock only when asked for and credentials resolve; otherwise the echo model, announced. */
async function chooseLlm(options: LocalOptions, log: (line: string) => void): Promise<LlmConfig> {
  if (options.llm.provider !== 'bedrock') return options.llm;
  try {
    await defaultProvider()();
    return options.llm;
  } catch (err) {
    log(
      `warning: --llm bedrock asked for, but no AWS credentials resolve (${(err as Error).message}); using the echo model instead`,
    );
    return { provider: 'echo' };
  }
}
