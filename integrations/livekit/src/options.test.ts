// The options contract: each mode's options, the environment's defaults, and a clear error naming
// each bad option (never a late failure at the first stream).
import { describe, expect, test } from '@jest/globals';
import { tokenize } from '@livekit/agents';
import { checkVoiceOptions, resolveOptions } from './options.ts';

const sagemaker = { endpointName: 'kokoro', region: 'eu-west-1' };

describe('resolveOptions', () => {
  test('SageMaker mode: the bidi transport with the endpoint, region, credentials, variant and runtime URL', () => {
    const credentials = { accessKeyId: 'AKID', secretAccessKey: 'secret' };
    const r = resolveOptions(
      { ...sagemaker, credentials, targetVariant: 'blue', runtimeUrl: 'http://127.0.0.1:9000', voice: 'bf_emma' },
      {},
    );
    expect(r.transport).toEqual({
      kind: 'sagemaker-bidi',
      endpointName: 'kokoro',
      region: 'eu-west-1',
      credentials,
      targetVariant: 'blue',
      endpoint: 'http://127.0.0.1:9000',
    });
    expect(r).toMatchObject({ endpoint: 'sagemaker:eu-west-1/kokoro', voice: 'bf_emma', speed: 1, sampleRate: 24000 });
    expect(r.wordTimestamps).toBe(true);
  });

  test('direct mode: the WebSocket transport with the given URL', () => {
    const url = 'ws://127.0.0.1:8080/invocations-bidirectional-stream';
    expect(resolveOptions({ url, voice: 'af_heart' }, {}).transport).toEqual({ kind: 'websocket', url });
  });

  test('the retry budgets go to the session layer', () => {
    const r = resolveOptions({ url: 'ws://h:1', retry: { reconnectBudgetMs: 300 } }, {});
    expect(r.transport).toEqual({
      kind: 'websocket',
      url: 'ws://h:1',
      retry: { budgetMs: 2000, reconnectBudgetMs: 300 },
    });
  });

  test('the environment fills in what the options leave out, and only then', () => {
    const env = { SAGEMAKER_ENDPOINT_NAME: 'from-env', AWS_REGION: 'us-west-2' };
    expect(resolveOptions({}, env).endpoint).toBe('sagemaker:us-west-2/from-env');
    expect(resolveOptions({}, { AWS_DEFAULT_REGION: 'ap-south-1', SAGEMAKER_ENDPOINT_NAME: 'e' }).endpoint).toBe(
      'sagemaker:ap-south-1/e',
    );
    expect(resolveOptions({ url: 'ws://h:1' }, env).transport.kind).toBe('websocket');
    expect(resolveOptions({}, { KOKORO_URL: 'ws://h:2' }).transport).toEqual({ kind: 'websocket', url: 'ws://h:2' });
  });

  test('a language alone picks its default voice; the normaliser is left to the voice', () => {
    expect(resolveOptions({ url: 'ws://h:1', language: 'es' }, {})).toMatchObject({ voice: 'ef_dora', language: 'es' });
    expect(resolveOptions({ url: 'ws://h:1', language: 'en-GB' }, {}).voice).toBe('bf_emma');
    expect(resolveOptions({ url: 'ws://h:1', language: 'es', voice: 'em_alex' }, {}).voice).toBe('em_alex');
  });

  test.each([
    [{}, /give endpointName \(or set SAGEMAKER_ENDPOINT_NAME\).*or url/],
    [{ ...sagemaker, url: 'ws://h:1' }, /give url .* or endpointName .*, not both/],
    [{ endpointName: 'kokoro' }, /region is required with endpointName/],
    [{ url: 'ws://h:1', region: 'us-east-1' }, /region is for a SageMaker endpoint/],
    [{ url: 'http://h:1' }, /url must be ws:\/\/ or wss:\/\/, got "http:\/\/h:1"/],
    [{ url: '' }, /url must be a non-empty string/],
    [{ ...sagemaker, runtimeUrl: 'ws://h:1' }, /runtimeUrl must be http:\/\/ or https:\/\//],
    [{ ...sagemaker, speed: 3 }, /speed must be a number from 0.5 to 2, got 3/],
    [{ ...sagemaker, speed: Number.NaN }, /speed must be a number/],
    [{ ...sagemaker, sampleRate: 44100 }, /sampleRate must be one of 24000, 16000, 8000, got 44100/],
    [{ ...sagemaker, voice: 7 }, /voice must be a non-empty string, got 7/],
    [{ ...sagemaker, language: 'xx' }, /language "xx" has no default voice here/],
    [{ ...sagemaker, wordTimestamps: 'yes' }, /wordTimestamps must be true or false/],
    [{ ...sagemaker, retry: { budgetMs: -1 } }, /retry.budgetMs must be a number of milliseconds >= 0/],
    [{ ...sagemaker, sentenceTokenizer: {} }, /sentenceTokenizer must be a LiveKit tokenize.SentenceTokenizer/],
    [{ ...sagemaker, voce: 'af_heart' }, /unknown option "voce"; known: endpointName/],
  ])('%j is refused, naming the problem', (options, message) => {
    expect(() => resolveOptions(options as never, {})).toThrow(message);
    expect(() => resolveOptions(options as never, {})).toThrow(TypeError);
  });

  test('a LiveKit tokenizer is accepted', () => {
    const tokenizer = new tokenize.basic.SentenceTokenizer();
    expect(resolveOptions({ ...sagemaker, sentenceTokenizer: tokenizer }, {}).sentenceTokenizer).toBe(tokenizer);
  });
});

test('checkVoiceOptions keeps the voice, defaults the speed and checks it', () => {
  expect(checkVoiceOptions({ voice: 'af_bella' })).toEqual({ voice: 'af_bella', speed: 1, language: undefined });
  expect(checkVoiceOptions({ speed: 0.5 }).speed).toBe(0.5);
  expect(() => checkVoiceOptions({ speed: 2.5 })).toThrow(/speed must be a number from 0.5 to 2/);
});
