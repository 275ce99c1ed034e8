// Starts what `npm start` runs, in order, and stops it in reverse: the Kokoro server (container),
// or N of them as separate processes (--instances), the local SageMaker router in front of it,
// the agent (talking to the router through the same bidirectional-stream client it uses on AWS),
// and the web server; or, with a runtime ARN or an agent URL, the web server alone in front of
// that agent. With --auth, a local sign-in and AgentCore stand-in go in front of the agent
// (auth/local-auth.ts).
import { SileroVad } from '@kokoro-speech/runtime/stt';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { DEFAULT_SYSTEM_PROMPT } from '@kokoro-speech/runtime';
import { createLlmProvider, type LlmConfig } from '@kokoro-speech/runtime';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { startAgentServer, ToolBox } from '@kokoro-speech/runtime';
import { SageMakerBidiTransport } from '@kokoro-speech/runtime';
import { AgentCoreTarget } from '../agentcore/agentcore.ts';
import { authPorts, checkAuthPortsFree, startLocalAuth } from '../auth/local-auth.ts';
import { resolveModel } from './model.ts';
import { getFilesHint } from './model-dir.ts';
import type { LocalOptions } from './options.ts';
import {
  checkPortFree,
  checkVoice,
  listenError,
  readVoices,
  requireAwsCredentials,
  resolveAwsRegion,
  type AwsRegion,
} from './preflight.ts';
import { progressBar } from './progress.ts';
import { toolInfo } from './tool-info.ts';
import { startContainers } from './containers.ts';
import { StartupError } from './startup-error.ts';
import { startStt } from './stt-option.ts';
import { agentCoreUpstream, agentServerUpstream } from '../web-server/upstream.ts';
import { startWebServer, type PageInfo } from '../web-server/web-server.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { startTraceConsole, type TraceConsole } from '../trace/trace-console.ts';

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
    // Before anything slow (a download, loading the model): the page's port must be free.
    await checkPortFree(options.host, options.port);
    if (options.auth) await checkAuthPortsFree(options.port);
    let upstream;
    let agentUrl: URL | undefined;
    let info: PageInfo;
    let localRouter: LocalSageMakerRouter | undefined;
    let containerUrl: string | undefined;
    if (options.target !== undefined) {
      // Resolved now, so that a missing AWS set-up stops here instead of failing every turn later.
      const credentials = defaultProvider();
      await requireAwsCredentials(
        `${options.from?.target === 'KOKORO_AGENT_RUNTIME_ARN' ? 'KOKORO_AGENT_RUNTIME_ARN' : '--target'} ${options.target}`,
        'Without AWS: leave the target out, and npm start runs the whole pipeline on this machine.',
        credentials,
      );
      const target = new AgentCoreTarget({
        arn: options.target,
        ...(options.qualifier === undefined ? {} : { qualifier: options.qualifier }),
        credentials,
      });
      upstream = agentCoreUpstream(target);
      info = {
        llm: { name: 'remote', description: 'as configured on the runtime' },
        model: { kind: 'remote', description: 'the deployed SageMaker endpoint' },
        target: { kind: 'agentcore', description: `AgentCore ${target.runtime.runtimeId} (${target.runtime.region})` },
        region: { name: target.runtime.region, source: 'the runtime ARN' },
      };
    } else if (options.agentUrl !== undefined) {
      agentUrl = options.agentUrl;
      upstream = agentServerUpstream(options.agentUrl);
      info = {
        llm: { name: 'remote', description: 'as configured on that agent' },
        model: { kind: 'remote', description: 'as configured on that agent' },
        target: { kind: 'agent', description: options.agentUrl.origin },
      };
    } else {
      const { config: llmConfig, region } = await chooseLlm(options);
      const model = await resolveModel({
        offline: options.offline,
        dtype: options.dtype,
        export: options.export,
        ...(options.modelDir === undefined ? {} : { modelDir: options.modelDir }),
        ...(options.from?.modelDir === undefined ? {} : { modelDirSource: options.from?.modelDir }),
        onProgress: progressBar(),
        ...(hooks.signal ? { signal: hooks.signal } : {}),
      });
      closers.push(() => model.dispose());
      // --trace: closed last (closers run in reverse), so the agent's and containers' last spans get in.
      let traces: TraceConsole | undefined;
      if (options.trace) {
        traces = await startTraceConsole(log);
        closers.push(() => traces!.close());
        log(
          `tracing: each turn's trace is printed when it ends (OTLP receiver at ${traces.env.OTEL_EXPORTER_OTLP_ENDPOINT})`,
        );
      }
      log(`loading ${model.description}${options.instances > 1 ? ` in ${options.instances} instances` : ''}...`);
      let loading = true;
      const containers = await startContainers(
        options.instances,
        model,
        closers,
        { quietWhile: () => loading, ...(hooks.log ? { write: hooks.log } : {}) },
        traces,
      ).catch((error: unknown) => {
        if (options.modelDir === undefined) throw error;
        // The user's own folder passed the file checks but did not load: say so once, with the way out.
        const why = errorMessage(error);
        const given =
          options.from?.modelDir === '--model-dir' ? `--model-dir ${model.dir}` : `KOKORO_MODEL_DIR=${model.dir}`;
        throw new StartupError(
          `the Kokoro server could not load the model in ${given}: ${why}\n${getFilesHint(model.dir, model.dtype)}`,
          { cause: error },
        );
      });
      loading = false;
      // The voice asked for must be one the model has: checked now, against the servers' own lists
      // (every instance loads the same folder; a voice counts only if each of them has it).
      if (options.voice !== undefined) {
        const lists = await Promise.all(containers.map((c) => readVoices(c.wsUrl)));
        const voices = lists[0]!.filter((voice) => lists.every((list) => list.includes(voice)));
        checkVoice(options.voice, options.from?.voice ?? '--voice', voices);
      }
      const containerUrls = containers.map((c) => c.url);
      containerUrl = containerUrls[0];
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
      // Made here, so that the page and the banner show the tools the agent itself has.
      const tools = new ToolBox({ builtin: options.tools, ...(options.filler ? { filler: options.filler } : {}) });
      // Voice sessions: the STT chosen (--stt), a Silero VAD per session.
      const stt = await startStt(options.stt);
      closers.push(() => stt.close());
      const agent = await startAgentServer({
        llm,
        tts,
        voice: { stt, createVad: () => SileroVad.load() },
        host: '127.0.0.1',
        port: 0,
        systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
        ...(options.voice === undefined ? {} : { defaults: { voice: options.voice } }),
        tools,
        ...(traces ? { observability: { tracer: traces.agent.tracer } } : {}),
      });
      closers.push(() => agent.close());
      agentUrl = new URL(agent.url);
      upstream = agentServerUpstream(agentUrl);
      info = {
        llm: { name: llm.name, description: llm.name === 'echo' ? 'echo (repeats your prompt)' : llm.description },
        model: {
          kind: model.kind,
          description: `${model.description}${options.instances > 1 ? `, ${options.instances} instances` : ''}`,
        },
        target: { kind: 'local', description: 'local, through the SageMaker bidirectional stream' },
        ...(region === undefined ? {} : { region: { name: region.region, source: region.source } }),
        tools: toolInfo(await tools.tools(), { echo: llm.name === 'echo' }),
      };
    }
    const web = await startWebServer({
      upstream,
      info,
      host: options.host,
      port: options.port,
      allowedHosts: options.allowedHosts,
      auth: options.auth !== undefined,
      ...(containerUrl === undefined ? {} : { containerUrl }),
    }).catch((error: NodeJS.ErrnoException) => {
      throw listenError(error, options.host, options.port);
    });
    closers.push(() => web.close());
    if (options.auth && agentUrl) {
      const auth = await startLocalAuth({ web, agentUrl, ...options.auth, ...authPorts(options.port) });
      closers.push(() => auth.close());
      info.auth = { description: auth.description };
    }
    if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1') {
      log(
        `warning: listening on ${options.host}, not only on loopback: anyone who can reach it can use your agent${options.target ? ' and your AWS credentials' : ''}`,
      );
      // Browsers play the page's audio only in a secure context: https, or http on localhost.
      log(
        `note: from another machine, open the page through an SSH port forward (ssh -L ${web.port}:127.0.0.1:${web.port} <this host>, then http://127.0.0.1:${web.port}/) or over https: over plain http from another address it cannot play audio`,
      );
    }
    return { url: web.url, port: web.port, info, ...(localRouter && { router: localRouter }), close: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * Bedrock is only ever an explicit choice: it must work, so credentials are resolved now (a missing
 * set-up stops start-up naming the fix), and the region it will call is decided and shown.
 */
async function chooseLlm(options: LocalOptions): Promise<{ config: LlmConfig; region?: AwsRegion }> {
  if (options.llm.provider !== 'bedrock') return { config: options.llm };
  await requireAwsCredentials(
    options.from?.llm === 'LLM_PROVIDER' ? 'LLM_PROVIDER=bedrock' : '--llm bedrock',
    'Without AWS: leave the LLM choice out (the echo model), or --llm openai with OPENAI_BASE_URL and OPENAI_MODEL.',
  );
  const region = await resolveAwsRegion();
  return { config: { ...options.llm, region: region.region }, region };
}
