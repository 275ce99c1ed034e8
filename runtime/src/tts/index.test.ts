// Transport selection from configuration (the environment side is tested in ../config.test.ts).
import { describe, expect, test } from '@jest/globals';
import { createTransport } from './index.ts';

describe('createTransport', () => {
  test('a container URL selects the direct WebSocket and adds the bidi path', () => {
    const transport = createTransport({ kind: 'websocket', url: 'ws://127.0.0.1:8080' });
    expect(transport.name).toBe('websocket');
    expect((transport as unknown as { url: string }).url).toBe('ws://127.0.0.1:8080/invocations-bidirectional-stream');
  });

  test('each SageMaker kind gives its transport', () => {
    const common = { endpointName: 'kokoro', region: 'eu-central-1', endpoint: 'http://127.0.0.1:9' };
    expect(createTransport({ kind: 'sagemaker-bidi', ...common }).name).toBe('sagemaker-bidi');
    expect(createTransport({ kind: 'sagemaker-response-stream', ...common }).name).toBe('sagemaker-response-stream');
  });

  test('bad settings get errors that name the variable', () => {
    expect(() => createTransport({ kind: 'websocket', url: 'http://x' })).toThrow(/KOKORO_URL must be a ws/);
    expect(() => createTransport({ kind: 'sagemaker-bidi', endpointName: 'k', region: 'moon' })).toThrow(
      /AWS_REGION must be a region/,
    );
    expect(() =>
      createTransport({
        kind: 'sagemaker-response-stream',
        endpointName: 'k',
        region: 'us-east-1',
        endpoint: 'ftp://x',
      }),
    ).toThrow(/SAGEMAKER_RUNTIME_URL/);
    // Checked against the SageMaker HTTP/2 model's constraints before the first call.
    expect(() =>
      createTransport({
        kind: 'sagemaker-bidi',
        endpointName: 'k',
        region: 'us-east-1',
        targetVariant: 'v'.repeat(64),
      }),
    ).toThrow(/SAGEMAKER_TARGET_VARIANT: X-Amzn-SageMaker-Target-Variant is 64 characters long/);
    expect(() =>
      createTransport({ kind: 'sagemaker-bidi', endpointName: 'kokoro_1', region: 'us-east-1' }),
    ).not.toThrow();
    expect(() => createTransport({ kind: 'sagemaker-bidi', endpointName: '_k', region: 'us-east-1' })).toThrow(
      /SAGEMAKER_ENDPOINT_NAME: EndpointName/,
    );
    // Every partition's region names, e.g. the European Sovereign Cloud's.
    expect(createTransport({ kind: 'sagemaker-bidi', endpointName: 'k', region: 'eusc-de-east-1' }).name).toBe(
      'sagemaker-bidi',
    );
  });
});
