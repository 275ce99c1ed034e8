// The Kokoro server's environment: the defaults, the boundaries each variable accepts, and a bad
// environment as one ConfigError naming every bad variable with what it takes.
import { describe, expect, test } from '@jest/globals';
import { ConfigError, configFromEnv, defaultConfig } from './config.ts';

describe('configFromEnv', () => {
  test('the defaults', () => {
    expect(configFromEnv({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      modelDir: '/opt/ml/model',
      dtype: 'fp32',
      device: 'cpu',
      defaultVoice: 'af_heart',
      maxConcurrentRuns: 1,
      maxTextChars: 5000,
      maxQueuedPerSession: 64,
      maxQueuedTotal: 1024,
      maxWsMessageBytes: 64 * 1024,
      maxSessions: 256,
      maxWsBufferedBytes: 16 * 1024 * 1024,
      prepWorkers: undefined,
      shutdownGraceMs: 10_000,
      logLevel: 'info',
      admission: 'on',
      admissionMaxUtilization: 0.7,
      admissionFirstAudioMs: 400,
      admissionWindowMs: 30_000,
      admissionPriorSpeakingShare: 0.5,
      metricsIntervalMs: 60_000,
      metricsNamespace: 'KokoroSpeech',
      metricsDimensions: {},
    });
    expect(defaultConfig({ port: 0 }).port).toBe(0);
    // Blank is unset.
    expect(configFromEnv({ PORT: '', KOKORO_VOICE: '' })).toMatchObject({ port: 8080, defaultVoice: 'af_heart' });
    // The bind address and the API key (self-hosting; unset: no key, blank too).
    expect(configFromEnv({ HOST: '127.0.0.1', KOKORO_API_KEY: 's3cret' })).toMatchObject({
      host: '127.0.0.1',
      apiKey: 's3cret',
    });
    expect(configFromEnv({ KOKORO_API_KEY: '' }).apiKey).toBeUndefined();
  });

  test('each variable at the edges of what it accepts', () => {
    expect(
      configFromEnv({
        PORT: '65535',
        MAX_WS_MESSAGE_BYTES: '256',
        MAX_WS_BUFFERED_BYTES: '65536',
        SHUTDOWN_GRACE_MS: '0',
        ADMISSION_MAX_UTILIZATION: '1',
        ADMISSION_PRIOR_SPEAKING_SHARE: '0',
        METRICS_INTERVAL_S: '0',
        METRICS_ENDPOINT_NAME: 'kokoro',
        PREP_WORKERS: '3',
      }),
    ).toMatchObject({
      port: 65535,
      maxWsMessageBytes: 256,
      maxWsBufferedBytes: 65536,
      shutdownGraceMs: 0,
      admissionMaxUtilization: 1,
      admissionPriorSpeakingShare: 0,
      metricsIntervalMs: 0,
      metricsDimensions: { EndpointName: 'kokoro' },
      prepWorkers: 3,
    });
  });

  test('a bad environment is one ConfigError naming every bad variable, what it takes and what it got', () => {
    let error: unknown;
    try {
      configFromEnv({
        PORT: 'eighty',
        KOKORO_DEVICE: 'tpu',
        MAX_WS_MESSAGE_BYTES: '255',
        ADMISSION_MAX_UTILIZATION: '0',
        METRICS_NAMESPACE: 'n'.repeat(256),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems).toEqual([
      'PORT: must be a whole number from 0 to 65535, not "eighty"',
      expect.stringMatching(/^KOKORO_DEVICE: must be one of cpu, .*, not "tpu"$/),
      'MAX_WS_MESSAGE_BYTES: must be a whole number of at least 256, not "255"',
      'ADMISSION_MAX_UTILIZATION: must be a number above 0 and at most 1, not "0"',
      expect.stringMatching(/^METRICS_NAMESPACE: must be at most 255 characters, not "n+\.\.\."$/),
    ]);
    expect(message).toBe(`invalid configuration: ${problems.join('; ')}`);
  });
});
