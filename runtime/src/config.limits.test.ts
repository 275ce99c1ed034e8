// loadConfig's bounds and observability: browser origins, LLM timeouts, slow callers, AgentCore's
// limits, the TTS reconnect budget, metrics and tracing (the rest: config.test.ts).
import { describe, expect, test } from '@jest/globals';
import { loadConfig } from './config.ts';

describe('loadConfig: browser origins', () => {
  test('ALLOWED_ORIGINS: none by default, a list of origins, or * for any; a bad entry is named', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k' }).allowedOrigins).toBeUndefined();
    expect(
      loadConfig({ KOKORO_URL: 'ws://k', ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' })
        .allowedOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({ KOKORO_URL: 'ws://k', ALLOWED_ORIGINS: '*' }).allowedOrigins).toBe('*');
    expect(() =>
      loadConfig({ KOKORO_URL: 'ws://k', ALLOWED_ORIGINS: 'https://ok.example, app.example.com/x' }),
    ).toThrow(/ALLOWED_ORIGINS: "app\.example\.com\/x" is not an origin/);
  });
});

describe('loadConfig: LLM timeouts', () => {
  test('LLM_FIRST_TOKEN_SECONDS and LLM_IDLE_SECONDS: absent by default (20 s and 15 s apply), in ms when set', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k' }).llmTimeouts).toBeUndefined();
    expect(
      loadConfig({ KOKORO_URL: 'ws://k', LLM_FIRST_TOKEN_SECONDS: '30', LLM_IDLE_SECONDS: '7.5' }).llmTimeouts,
    ).toEqual({ firstTokenMs: 30_000, idleMs: 7500 });
    expect(loadConfig({ KOKORO_URL: 'ws://k', LLM_IDLE_SECONDS: '5' }).llmTimeouts).toEqual({ idleMs: 5000 });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', LLM_IDLE_SECONDS: '0' })).toThrow(/LLM_IDLE_SECONDS: /);
  });
});

describe('loadConfig: slow callers', () => {
  test('CALLER_BUFFER_BYTES and CALLER_STALL_SECONDS: absent by default (64 KiB and 30 s apply)', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k' }).flow).toBeUndefined();
    expect(
      loadConfig({ KOKORO_URL: 'ws://k', CALLER_BUFFER_BYTES: '262144', CALLER_STALL_SECONDS: '12' }).flow,
    ).toEqual({ bufferBytes: 262_144, stallMs: 12_000 });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', CALLER_BUFFER_BYTES: '10' })).toThrow(/CALLER_BUFFER_BYTES: /);
  });
});

describe("loadConfig: AgentCore's limits", () => {
  test('WS_MAX_FRAME_BYTES, WS_MAX_FRAMES_PER_SECOND, MAX_STREAM_SECONDS, WS_IDLE_SECONDS: absent by default; ranges named', () => {
    const base = loadConfig({ KOKORO_URL: 'ws://k' });
    expect(base.wsFrames).toBeUndefined();
    expect(base.streams).toBeUndefined();
    const set = loadConfig({
      KOKORO_URL: 'ws://k',
      WS_MAX_FRAME_BYTES: '16384',
      WS_MAX_FRAMES_PER_SECOND: '100',
      MAX_STREAM_SECONDS: '1800',
      WS_IDLE_SECONDS: '60.5',
    });
    expect(set.wsFrames).toEqual({ maxFrameBytes: 16_384, maxFramesPerSecond: 100 });
    expect(set.streams).toEqual({ maxStreamMs: 1_800_000, wsIdleMs: 60_500 });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', WS_MAX_FRAME_BYTES: '100' })).toThrow(/WS_MAX_FRAME_BYTES: /);
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', WS_MAX_FRAMES_PER_SECOND: '2.5' })).toThrow(
      /WS_MAX_FRAMES_PER_SECOND: /,
    );
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', MAX_STREAM_SECONDS: '0' })).toThrow(/MAX_STREAM_SECONDS: /);
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', WS_IDLE_SECONDS: 'soon' })).toThrow(/WS_IDLE_SECONDS: /);
  });
});

describe('loadConfig: TTS reconnect budget', () => {
  test('TTS_RECONNECT_BUDGET_MS reaches every transport beside the retry budget; unset leaves the default (5 s)', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k', TTS_RECONNECT_BUDGET_MS: '8000' }).tts).toMatchObject({
      retry: { budgetMs: 2000, reconnectBudgetMs: 8000 },
    });
    expect(
      loadConfig({
        SAGEMAKER_ENDPOINT_NAME: 'e',
        AWS_REGION: 'r',
        TTS_RETRY_BUDGET_MS: '0',
        TTS_RECONNECT_BUDGET_MS: '0',
      }).tts,
    ).toMatchObject({ kind: 'sagemaker-bidi', retry: { budgetMs: 0, reconnectBudgetMs: 0 } });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', TTS_RECONNECT_BUDGET_MS: 'soon' })).toThrow(
      /TTS_RECONNECT_BUDGET_MS: /,
    );
  });
});

describe('loadConfig: observability', () => {
  test('AGENT_METRICS=emf turns the metrics on, in KokoroSpeech for kokoro-agent unless named; off by default', () => {
    expect(loadConfig({ KOKORO_URL: 'ws://k' }).metrics).toBeUndefined();
    expect(loadConfig({ KOKORO_URL: 'ws://k', AGENT_METRICS: 'off' }).metrics).toBeUndefined();
    expect(loadConfig({ KOKORO_URL: 'ws://k', AGENT_METRICS: 'emf' }).metrics).toEqual({
      namespace: 'KokoroSpeech',
      service: 'kokoro-agent',
    });
    expect(
      loadConfig({ KOKORO_URL: 'ws://k', AGENT_METRICS: 'emf', METRICS_NAMESPACE: 'N', METRICS_SERVICE: 'voice' })
        .metrics,
    ).toEqual({ namespace: 'N', service: 'voice' });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', AGENT_METRICS: 'cloudwatch' })).toThrow(/AGENT_METRICS: /);
  });

  test('the OTEL_* variables are kept for the tracing set-up; ones it cannot honour are named at start', () => {
    const env = { KOKORO_URL: 'ws://k', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SERVICE_NAME: 'a' };
    expect(loadConfig(env).otel).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_SERVICE_NAME: 'a',
    });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(
      /OTEL_TRACES_EXPORTER: must be otlp, console or none, not "jaeger"/,
    );
    // A platform's default protocol (ADOT sets http/protobuf) does not stop the agent: it sends http/json.
    expect(loadConfig({ ...env, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }).otel).toMatchObject({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    expect(() => loadConfig({ KOKORO_URL: 'ws://k', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT \(or _TRACES_ENDPOINT\): must be an http\(s\):\/\/ URL/,
    );
  });
});
