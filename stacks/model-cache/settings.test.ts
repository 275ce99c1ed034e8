import { describe, expect, test } from '@jest/globals';
import { KOKORO_ONNX_REVISION } from '@kokoro-speech/weights/kokoro';
import { readSettings, type ConfigSource } from './settings.ts';

const source = (values: Record<string, unknown>): ConfigSource => ({
  get: (k) => values[k] as string | undefined,
  getBoolean: (k) => values[k] as boolean | undefined,
  getNumber: (k) => values[k] as number | undefined,
  getObject: <T>(k: string) => values[k] as T | undefined,
});

describe('readSettings', () => {
  test('defaults to the pinned Kokoro export, synced during up', () => {
    expect(readSettings(source({}), false)).toMatchObject({
      repo: 'onnx-community/Kokoro-82M-v1.0-ONNX',
      revision: KOKORO_ONNX_REVISION,
      syncOnUp: true,
      maxConcurrency: 8,
      partSizeMiB: 16,
      include: expect.arrayContaining(['onnx/model.onnx', 'onnx/model_quantized.onnx', 'voices/*.bin']),
    });
  });

  test.each([
    [{ revision: 'main' }, /'revision' must be a full 40-character commit/],
    [{ repo: 'kokoro' }, /'repo' must look like "owner\/name"/],
    [{ include: [] }, /'include' must be a non-empty list/],
    [{ include: 'voices/*.bin' }, /'include' must be a non-empty list/],
    [{ maxConcurrency: 0 }, /'maxConcurrency' must be an integer in \[1, 40\]/],
    [{ partSizeMiB: 4 }, /'partSizeMiB' must be an integer in \[5, 512\]/],
    [
      { logRetentionDays: 10 },
      /'logRetentionDays' must be a retention CloudWatch Logs accepts \(1, 3, 5, 7, 14, 30, .*\), got 10/,
    ],
    [{ hfEndpoint: 'http://mirror' }, /'hfEndpoint' must be an https URL/],
    [{ hfTokenSecretArn: 'hf-token' }, /'hfTokenSecretArn' must be a Secrets Manager secret ARN/],
  ])('refuses %j', (values, message) => {
    expect(() => readSettings(source(values), false)).toThrow(message);
  });

  test('a token and a token secret are exclusive', () => {
    expect(() =>
      readSettings(source({ hfTokenSecretArn: 'arn:aws:secretsmanager:us-east-1:1:secret:x' }), true),
    ).toThrow(/exclusive/);
  });
});
