// The plugin's options (an external contract: the names are kept) and their checks: which endpoint
// (a SageMaker endpoint over the bidirectional stream, or a container's WebSocket), the voice, and
// how text is cut. A bad option fails the constructor with an error that names it.
import type { tokenize } from '@livekit/agents';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { MAX_SPEED, MIN_SPEED, SAMPLE_RATES } from '@kokoro-speech/protocol';
import type { SampleRate } from '@kokoro-speech/protocol';
import { DEFAULT_RETRY_BUDGET_MS } from '@kokoro-speech/runtime/tts';
import type { TransportConfig } from '@kokoro-speech/runtime/tts';
import { defaultVoice } from './languages.ts';

export interface TTSOptions {
  /** SageMaker mode: the endpoint's name (default `SAGEMAKER_ENDPOINT_NAME`). */
  endpointName?: string;
  /** SageMaker mode: the endpoint's region (default `AWS_REGION`, then `AWS_DEFAULT_REGION`). */
  region?: string;
  /** SageMaker mode: credentials or a provider of them (default: the AWS SDK's default chain). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** SageMaker mode: the production variant to invoke (default: SageMaker's choice). */
  targetVariant?: string;
  /** SageMaker mode: another runtime URL, e.g. the local router's http://127.0.0.1:PORT. */
  runtimeUrl?: string;
  /** Direct mode: the container's ws://host:port/invocations-bidirectional-stream (default `KOKORO_URL`). */
  url?: string;
  /** A voice of the endpoint (default: the language's default voice, else the container's). */
  voice?: string;
  /** 0.5 to 2.0 (default 1). */
  speed?: number;
  /** BCP 47 (en-us, en-gb, es, fr-fr, hi, it, pt-br, ...): picks the default voice and is checked
   *  against the voice's language. */
  language?: string;
  /** 24000 (Kokoro's own rate, the default), 16000 or 8000. */
  sampleRate?: SampleRate;
  /** Cut pushed text with this LiveKit tokenizer instead of the project's segmenter. */
  sentenceTokenizer?: tokenize.SentenceTokenizer;
  /** Report word timings as LiveKit's aligned transcript (default true). */
  wordTimestamps?: boolean;
  /** Speak money, dates, units and markdown as words (default: for English voices only). */
  normalize?: boolean;
  /** The session layer's retry budgets: refused sessions (default 2000 ms) and a stream broken
   *  mid-answer (default 5000 ms). */
  retry?: { budgetMs?: number; reconnectBudgetMs?: number };
}

/** What the streams need, checked. */
export interface ResolvedOptions {
  transport: TransportConfig;
  /** What the endpoint is, for LiveKit's metrics (`model`). */
  endpoint: string;
  voice: string | undefined;
  speed: number;
  language: string | undefined;
  sampleRate: SampleRate;
  sentenceTokenizer: tokenize.SentenceTokenizer | undefined;
  wordTimestamps: boolean;
  normalize: boolean | undefined;
}

const KNOWN = new Set<string>([
  'endpointName',
  'region',
  'credentials',
  'targetVariant',
  'runtimeUrl',
  'url',
  'voice',
  'speed',
  'language',
  'sampleRate',
  'sentenceTokenizer',
  'wordTimestamps',
  'normalize',
  'retry',
]);

const fail = (message: string): never => {
  throw new TypeError(`Kokoro TTS: ${message}`);
};

function optionalString(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} must be a non-empty string, got ${show(value)}`);
  return value as string;
}

const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value));

/** The voice settings a stream may change later (updateOptions). */
export function checkVoiceOptions(options: Pick<TTSOptions, 'voice' | 'speed' | 'language'>): {
  voice: string | undefined;
  speed: number;
  language: string | undefined;
} {
  const language = optionalString('language', options.language)?.toLowerCase();
  const voice = optionalString('voice', options.voice) ?? (language === undefined ? undefined : defaultVoice(language));
  if (language !== undefined && voice === undefined)
    fail(`language ${show(language)} has no default voice here: give a voice of that language`);
  const speed = options.speed ?? 1;
  if (typeof speed !== 'number' || !(speed >= MIN_SPEED && speed <= MAX_SPEED))
    fail(`speed must be a number from ${MIN_SPEED} to ${MAX_SPEED}, got ${show(options.speed)}`);
  return { voice, speed, language };
}

function transportConfig(options: TTSOptions, env: NodeJS.ProcessEnv): { config: TransportConfig; endpoint: string } {
  const given = options.url !== undefined || options.endpointName !== undefined;
  const url = optionalString('url', given ? options.url : env['KOKORO_URL'] || undefined);
  const endpointName = optionalString(
    'endpointName',
    given ? options.endpointName : env['SAGEMAKER_ENDPOINT_NAME'] || undefined,
  );
  const retry = options.retry;
  if (retry !== undefined && (typeof retry !== 'object' || retry === null)) fail('retry must be an object');
  for (const key of ['budgetMs', 'reconnectBudgetMs'] as const) {
    const v = retry?.[key];
    if (v !== undefined && !(typeof v === 'number' && v >= 0 && Number.isFinite(v)))
      fail(`retry.${key} must be a number of milliseconds >= 0, got ${show(v)}`);
  }
  const budgets =
    retry === undefined ? {} : { retry: { ...retry, budgetMs: retry.budgetMs ?? DEFAULT_RETRY_BUDGET_MS } };
  if (url !== undefined && endpointName !== undefined)
    fail('give url (a container over WebSocket) or endpointName (a SageMaker endpoint), not both');
  if (url !== undefined) {
    for (const name of ['region', 'credentials', 'targetVariant', 'runtimeUrl'] as const)
      if (options[name] !== undefined) fail(`${name} is for a SageMaker endpoint; it has no meaning with url`);
    if (!/^wss?:\/\//i.test(url)) fail(`url must be ws:// or wss://, got ${show(url)}`);
    return { config: { kind: 'websocket', url, ...budgets }, endpoint: url };
  }
  if (endpointName === undefined)
    fail(
      'give endpointName (or set SAGEMAKER_ENDPOINT_NAME) for a SageMaker endpoint, or url (or KOKORO_URL) for a container',
    );
  const region = optionalString(
    'region',
    options.region ?? (env['AWS_REGION'] || env['AWS_DEFAULT_REGION'] || undefined),
  );
  if (region === undefined) fail('region is required with endpointName (or set AWS_REGION)');
  const runtimeUrl = optionalString('runtimeUrl', options.runtimeUrl);
  if (runtimeUrl !== undefined && !/^https?:\/\//i.test(runtimeUrl))
    fail(`runtimeUrl must be http:// or https://, got ${show(runtimeUrl)}`);
  const targetVariant = optionalString('targetVariant', options.targetVariant);
  return {
    config: {
      kind: 'sagemaker-bidi',
      endpointName: endpointName as string,
      region: region as string,
      ...(options.credentials !== undefined && { credentials: options.credentials }),
      ...(runtimeUrl !== undefined && { endpoint: runtimeUrl }),
      ...(targetVariant !== undefined && { targetVariant }),
      ...budgets,
    },
    endpoint: `sagemaker:${region}/${endpointName}`,
  };
}

export function resolveOptions(options: TTSOptions, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  if (typeof options !== 'object' || options === null) fail(`options must be an object, got ${show(options)}`);
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) fail(`unknown option ${unknown.map(show).join(', ')}; known: ${[...KNOWN].join(', ')}`);
  const sampleRate = options.sampleRate ?? 24000;
  if (!(SAMPLE_RATES as readonly number[]).includes(sampleRate))
    fail(`sampleRate must be one of ${SAMPLE_RATES.join(', ')}, got ${show(options.sampleRate)}`);
  for (const name of ['wordTimestamps', 'normalize'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'boolean')
      fail(`${name} must be true or false, got ${show(options[name])}`);
  const tokenizer = options.sentenceTokenizer;
  if (tokenizer !== undefined && typeof (tokenizer as { stream?: unknown }).stream !== 'function')
    fail('sentenceTokenizer must be a LiveKit tokenize.SentenceTokenizer (it has stream() and tokenize())');
  const { config, endpoint } = transportConfig(options, env);
  return {
    transport: config,
    endpoint,
    ...checkVoiceOptions(options),
    sampleRate,
    sentenceTokenizer: tokenizer,
    wordTimestamps: options.wordTimestamps ?? true,
    normalize: options.normalize,
  };
}
