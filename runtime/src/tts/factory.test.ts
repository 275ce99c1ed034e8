// Transport selection from configuration and the environment.
import { describe, expect, test } from '@jest/globals';
import { createTransport, transportConfigFromEnv } from './factory.ts';

describe('transportConfigFromEnv / createTransport', () => {
  test('KOKORO_URL selects the direct WebSocket and adds the bidi path', () => {
    const transport = createTransport(transportConfigFromEnv({ KOKORO_URL: 'ws://127.0.0.1:8080' }));
    expect(transport.name).toBe('websocket');
    expect((transport as unknown as { url: string }).url).toBe('ws://127.0.0.1:8080/invocations-bidirectional-stream');
  });

  test('a SageMaker endpoint defaults to the bidirectional stream; SAGEMAKER_TRANSPORT picks the response stream', () => {
    const env = { SAGEMAKER_ENDPOINT_NAME: 'kokoro', AWS_REGION: 'eu-central-1', SAGEMAKER_RUNTIME_URL: 'http://127.0.0.1:9' };
    expect(transportConfigFromEnv(env)).toEqual({ kind: 'sagemaker-bidi', endpointName: 'kokoro', region: 'eu-central-1', endpoint: 'http://127.0.0.1:9' });
    expect(createTransport(transportConfigFromEnv(env)).name).toBe('sagemaker-bidi');
    const rs = createTransport(transportConfigFromEnv({ ...env, SAGEMAKER_TRANSPORT: 'response-stream' }));
    expect(rs.name).toBe('sagemaker-response-stream');
  });

  test('bad or missing settings get errors that name the variable', () => {
    expect(() => transportConfigFromEnv({})).toThrow(/KOKORO_URL.*SAGEMAKER_ENDPOINT_NAME/);
    expect(() => transportConfigFromEnv({ KOKORO_URL: 'ws://a', SAGEMAKER_ENDPOINT_NAME: 'b' })).toThrow(/not both/);
    expect(() => transportConfigFromEnv({ SAGEMAKER_ENDPOINT_NAME: 'k' })).toThrow(/AWS_REGION/);
    expect(() => transportConfigFromEnv({ SAGEMAKER_ENDPOINT_NAME: 'k', AWS_REGION: 'us-east-1', SAGEMAKER_TRANSPORT: 'udp' })).toThrow(/SAGEMAKER_TRANSPORT/);
    expect(() => createTransport(transportConfigFromEnv({ KOKORO_URL: 'http://x' }))).toThrow(/KOKORO_URL must be a ws/);
    expect(() => createTransport({ kind: 'sagemaker-bidi', endpointName: 'k', region: 'moon' })).toThrow(/AWS_REGION must be a region/);
    expect(() => createTransport({ kind: 'sagemaker-response-stream', endpointName: 'k', region: 'us-east-1', endpoint: 'ftp://x' })).toThrow(/SAGEMAKER_RUNTIME_URL/);
  });
});
