// Command line and environment of `npm start`: which port, which model, which LLM, which agent.
// The agent's variables (LLM, tools, filler, voice, prompt) are read by the runtime's own parsers,
// with the runtime's ranges; a flag that sets one is named in place of the variable.
import type { SttConfig } from '@kokoro-speech/runtime/stt';
import { sttSettings } from './stt-option.ts';
import { parseArgs } from 'node:util';
import { DEFAULT_FILLER_AFTER_MS, DEFAULT_VOICE, type BuiltinToolName, type LlmConfig } from '@kokoro-speech/runtime';
import { agentSettings } from './agent-option.ts';
import { isRuntimeArn } from '../agentcore/agentcore.ts';
import type { LocalDtype } from './model.ts';
import { commandLineError } from './command-line.ts';
import { UsageError } from '@kokoro-speech/protocol/errors';

export const USAGE = `usage: npm start -- [options]
  --port N             page port on 127.0.0.1 (default 3000; 0 picks a free one)
  --host ADDR          bind address (default 127.0.0.1; anything else exposes the agent)
  --allow-host NAMES   more Host names the page is served under, comma-separated (or
                       KOKORO_ALLOWED_HOSTS), e.g. a DNS name pointing at this machine; with a
                       --host beyond loopback this machine's addresses and host name are served,
                       any other name is refused (DNS rebinding)
  --offline            stand-in model: a tone instead of a voice, no download (and the local
                       STT's stand-in: no weights)
  --stt transcribe|openai|local
                       speech to text for voice sessions (or STT_PROVIDER; default local:
                       Whisper in this process; openai needs STT_OPENAI_BASE_URL, STT_OPENAI_MODEL)
  --dtype q8|fp32      Kokoro weights to load (default q8: fast on CPU)
  --export standard|timestamped
                       which pinned ONNX export to download (or KOKORO_EXPORT; default standard);
                       timestamped has a durations output: word timings from the model
  --model-dir DIR      a folder with the Kokoro ONNX files (or KOKORO_MODEL_DIR)
  --llm echo|bedrock|openai
                       default: LLM_PROVIDER, else openai when OPENAI_BASE_URL is set, else echo
                       bedrock: BEDROCK_MODEL_ID, AWS_REGION (or AWS_DEFAULT_REGION) and AWS credentials;
                       openai: OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY
  --voice ID           default voice (or KOKORO_VOICE; default ${DEFAULT_VOICE.voice})
  --tools LIST         built-in tools for the agent, comma-separated: time, calculator (or by the
                       names the model calls them, current_time, calculate; or BUILTIN_TOOLS;
                       default none). The echo model calls one for <tool name="NAME">{json}</tool>
  --filler TEXT        spoken while a tool runs with nothing playing (or TOOL_FILLER_TEXT; default none),
                       after TOOL_FILLER_AFTER_MS (default ${DEFAULT_FILLER_AFTER_MS})
  --instances N        Kokoro containers behind the local SageMaker router, as one variant's
                       instances (default 1; 2-8 run as separate processes, routed by least
                       outstanding requests)
  --target ARN         use a deployed AgentCore runtime instead of the local pipeline
                       (or KOKORO_AGENT_RUNTIME_ARN; AWS credentials from the usual chain)
  --qualifier NAME     AgentCore endpoint, e.g. live (or KOKORO_AGENT_QUALIFIER; default DEFAULT)
  --agent URL          use an agent server that is already running (npm run -w runtime start)
  --auth               sign-in as when deployed: a local OpenID Connect provider (test users alice
                       and bob) and an AgentCore stand-in that takes only its tokens, on 127.0.0.1
                       at the page's port + 1 and + 2; the page signs in and calls the stand-in
  --auth-mode direct|same-origin
                       how the page reaches the stand-in (or KOKORO_AUTH_MODE; default direct):
                       its own origin (CORS), or /runtimes/* on the page's origin
                       KOKORO_AUTH_TOKEN_TTL_S: how long a token lasts (default 3600)
  --trace              print each turn's trace when it ends: the agent's and the container's spans
                       (turn, sentences, TTS connect, tools, queue wait, synthesis) as a waterfall,
                       from a local OTLP receiver (the local pipeline only)`;

export type LlmChoice = 'echo' | 'bedrock' | 'openai';

export interface LocalOptions {
  port: number;
  host: string;
  /** Host names served besides loopback and this machine's own (--allow-host). */
  allowedHosts: string[];
  offline: boolean;
  dtype: LocalDtype;
  /** The pinned export to download (--export or KOKORO_EXPORT). */
  export: 'standard' | 'timestamped';
  modelDir: string | undefined;
  llm: LlmConfig;
  /** Speech to text for the agent's voice sessions (--stt or STT_PROVIDER; default local). */
  stt: SttConfig;
  /** Set when the LLM was asked for explicitly (flag or LLM_PROVIDER), not picked by default. */
  llmRequested: boolean;
  /** The agent's system prompt (SYSTEM_PROMPT; default: the runtime's voice-friendly one). */
  systemPrompt: string | undefined;
  /** Default voice (--voice or KOKORO_VOICE; default af_heart). */
  voice: string | undefined;
  /** Built-in tools of the local agent (--tools or BUILTIN_TOOLS). */
  tools: BuiltinToolName[];
  /** The tool filler (--filler or TOOL_FILLER_TEXT, after TOOL_FILLER_AFTER_MS). */
  filler: { text: string; afterMs: number } | undefined;
  /** Kokoro containers behind the router (1: in this process; more: one process each). */
  instances: number;
  target: string | undefined;
  qualifier: string | undefined;
  agentUrl: URL | undefined;
  /** Sign-in (--auth): how the page reaches the stand-in, and how long a token lasts. */
  auth: { mode: 'direct' | 'same-origin'; tokenTtlS: number } | undefined;
  /** --trace: each turn's trace (agent and container) as a waterfall on the console. */
  trace: boolean;
  help: boolean;
  /** Which flag or variable gave each of these settings, as the user wrote it (messages name it). */
  from?: {
    modelDir?: '--model-dir' | 'KOKORO_MODEL_DIR';
    voice?: '--voice' | 'KOKORO_VOICE';
    llm?: '--llm' | 'LLM_PROVIDER';
    target?: '--target' | 'KOKORO_AGENT_RUNTIME_ARN';
  };
}

/** A bad option of `npm start`: it prints the message and the usage, and exits 2. */
export { UsageError };

export function parseLocalOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): LocalOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        offline: { type: 'boolean' },
        dtype: { type: 'string' },
        export: { type: 'string' },
        'model-dir': { type: 'string' },
        llm: { type: 'string' },
        stt: { type: 'string' },
        voice: { type: 'string' },
        tools: { type: 'string' },
        filler: { type: 'string' },
        instances: { type: 'string' },
        target: { type: 'string' },
        qualifier: { type: 'string' },
        agent: { type: 'string' },
        auth: { type: 'boolean' },
        'auth-mode': { type: 'string' },
        trace: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw commandLineError(err);
  }
  const port = Number(values.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0-65535, not ${values.port}`);
  const instances = Number(values.instances ?? 1);
  if (!Number.isInteger(instances) || instances < 1 || instances > 8)
    throw new UsageError(`--instances must be a whole number from 1 to 8, not ${values.instances}`);
  const dtype = values.dtype ?? 'q8';
  if (dtype !== 'q8' && dtype !== 'fp32') throw new UsageError(`--dtype must be q8 or fp32, not ${dtype}`);
  const exportName = values.export ?? env['KOKORO_EXPORT'] ?? 'standard';
  if (exportName !== 'standard' && exportName !== 'timestamped')
    throw new UsageError(`--export must be standard or timestamped, not ${exportName}`);
  const target = values.target ?? env['KOKORO_AGENT_RUNTIME_ARN'] ?? undefined;
  if (target !== undefined && !isRuntimeArn(target)) {
    throw new UsageError(
      `--target must be an AgentCore runtime ARN (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>), not ${target}`,
    );
  }
  let agentUrl: URL | undefined;
  if (values.agent !== undefined) {
    agentUrl = URL.canParse(values.agent) ? new URL(values.agent) : undefined;
    if (!agentUrl || !/^https?:$/.test(agentUrl.protocol))
      throw new UsageError(`--agent must be an http(s) URL, not ${values.agent}`);
  }
  if (target !== undefined && agentUrl !== undefined) throw new UsageError('give --target or --agent, not both');
  const trace = values.trace ?? false;
  if (trace && (target !== undefined || agentUrl !== undefined))
    throw new UsageError(
      '--trace traces the local pipeline (agent and container on this machine); a deployed runtime sends its traces to CloudWatch (docs/design/observability.md)',
    );
  const auth = authSettings(values, env, target);
  const from: NonNullable<LocalOptions['from']> = {};
  if (values['model-dir'] !== undefined) from.modelDir = '--model-dir';
  else if (env['KOKORO_MODEL_DIR'] !== undefined) from.modelDir = 'KOKORO_MODEL_DIR';
  if (values.voice !== undefined) from.voice = '--voice';
  else if (env['KOKORO_VOICE']) from.voice = 'KOKORO_VOICE';
  if (values.llm !== undefined) from.llm = '--llm';
  else if (env['LLM_PROVIDER']) from.llm = 'LLM_PROVIDER';
  if (values.target !== undefined) from.target = '--target';
  else if (target !== undefined) from.target = 'KOKORO_AGENT_RUNTIME_ARN';
  const agent = agentSettings(values, env, from.llm ?? '--llm');
  return {
    port,
    host: values.host ?? '127.0.0.1',
    allowedHosts: (values['allow-host'] ?? [env['KOKORO_ALLOWED_HOSTS'] ?? ''])
      .flatMap((v) => v.split(','))
      .map((h) => h.trim())
      .filter((h) => h !== ''),
    offline: values.offline ?? false,
    stt: sttSettings(values.stt, env, values.offline ?? false),
    dtype,
    export: exportName,
    modelDir: values['model-dir'] ?? env['KOKORO_MODEL_DIR'] ?? undefined,
    ...agent,
    instances,
    target,
    qualifier: values.qualifier ?? env['KOKORO_AGENT_QUALIFIER'] ?? undefined,
    agentUrl,
    auth,
    trace,
    help: values.help ?? false,
    from,
  };
}

function authSettings(
  values: { auth?: boolean; 'auth-mode'?: string },
  env: NodeJS.ProcessEnv,
  target: string | undefined,
): LocalOptions['auth'] {
  if (!values.auth) {
    if (values['auth-mode'] !== undefined) throw new UsageError('--auth-mode goes with --auth');
    return undefined;
  }
  if (target !== undefined)
    throw new UsageError(
      '--auth signs in to a local provider in front of the local agent; a deployed runtime has its own sign-in (the web layer): leave out --auth or the target',
    );
  const mode = values['auth-mode'] ?? env['KOKORO_AUTH_MODE'] ?? 'direct';
  if (mode !== 'direct' && mode !== 'same-origin')
    throw new UsageError(
      `${values['auth-mode'] !== undefined ? '--auth-mode' : 'KOKORO_AUTH_MODE'} must be direct or same-origin, not ${mode}`,
    );
  const ttl = env['KOKORO_AUTH_TOKEN_TTL_S'];
  const tokenTtlS = ttl === undefined || ttl === '' ? 3600 : Number(ttl);
  if (!Number.isInteger(tokenTtlS) || tokenTtlS < 1 || tokenTtlS > 86400)
    throw new UsageError(`KOKORO_AUTH_TOKEN_TTL_S must be whole seconds from 1 to 86400, not ${ttl}`);
  return { mode, tokenTtlS };
}
