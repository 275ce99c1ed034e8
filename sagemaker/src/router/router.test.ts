// The local router against the fake protocol-v1 peer: signatures (request and events), frame
// mapping both ways, fragmentation, ModelStreamError on container close, the response-stream call.
import { describe, expect, test } from '@jest/globals';
import { connect } from 'node:http2';
import { InvokeEndpointWithResponseStreamCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { HttpRequest } from '@smithy/protocol-http';
import { fromUtf8 } from '@smithy/util-utf8';
import {
  codec,
  encodePayloadPart,
  EVENT_STREAM_CONTENT_TYPE,
  readMessages,
  decodeResponseEvent,
  STREAMING_PAYLOAD_HASH,
} from '../client/index.ts';
import type { ResponseEvent } from '../client/index.ts';
import { createSigner } from '../client/index.ts';
import { fakeAudio } from '@kokoro-speech/protocol/testing';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { json, NAME, read, REGION, suiteRouter } from '../testing/router-suite.ts';

const suite = suiteRouter();

describe('bidirectional stream through the local router', () => {
  test('maps container frames to PayloadParts (text -> UTF8, binary -> BINARY) and the end event closes cleanly', async () => {
    const stream = await suite.open();
    stream.send({ bytes: json({ type: 'config', sample_rate: 24000 }), dataType: 'UTF8' });
    stream.send({ bytes: json({ type: 'text', text: 'Hello there.', id: 'a' }), dataType: 'UTF8' });
    stream.send({ bytes: json({ type: 'end' }), dataType: 'UTF8' });
    const seen = await read(stream, (_, parsed) => (parsed as { type?: string } | null)?.type === 'done');
    const types = seen.map(
      ({ event, parsed }) =>
        (parsed as { type: string } | null)?.type ?? (event.type === 'PayloadPart' ? event.dataType : event.type),
    );
    expect(types[0]).toBe('ready');
    expect(types.slice(1, 2)).toEqual(['audio_start']);
    expect(types.slice(-2)).toEqual(['audio_end', 'done']);
    const audio = seen.filter(({ event }) => event.type === 'PayloadPart' && event.dataType === 'BINARY');
    expect(Buffer.concat(audio.map(({ event }) => (event as { bytes: Uint8Array }).bytes))).toEqual(
      fakeAudio('Hello there.'),
    );
    stream.end();
    // After the end-of-input event the router closes the WebSocket and ends the response cleanly.
    await expect(read(stream, () => false)).resolves.toEqual([]);
    stream.close();
  });

  test('maps client PayloadParts to frames: UTF8 -> text, BINARY and absent -> binary, PARTIAL..COMPLETE -> one message', async () => {
    suite.fake.received.length = 0;
    const stream = await suite.open();
    stream.send({ bytes: json({ type: 'config', speed: 1 }), dataType: 'UTF8' });
    stream.send({ bytes: json({ type: 'config', speed: 1.1 }), dataType: 'BINARY' });
    stream.send({ bytes: json({ type: 'config', speed: 1.2 }) });
    const whole = json({ type: 'text', text: 'Fragmented into three parts.', id: 'frag' });
    stream.send({ bytes: whole.subarray(0, 10), dataType: 'UTF8', completionState: 'PARTIAL' });
    stream.send({ bytes: whole.subarray(10, 20), dataType: 'UTF8', completionState: 'PARTIAL' });
    stream.send({ bytes: whole.subarray(20), dataType: 'UTF8', completionState: 'COMPLETE' });
    stream.send({ bytes: json({ type: 'end' }), dataType: 'UTF8' });
    await read(stream, (_, parsed) => (parsed as { type?: string } | null)?.type === 'done');
    expect(suite.fake.received).toEqual([
      { binary: false, message: { type: 'config', speed: 1 } },
      { binary: true, message: { type: 'config', speed: 1.1 } },
      { binary: true, message: { type: 'config', speed: 1.2 } },
      { binary: false, message: { type: 'text', text: 'Fragmented into three parts.', id: 'frag' } },
      { binary: false, message: { type: 'end' } },
    ]);
    stream.close();
  });

  test('a container-side close reaches the client as a ModelStreamError', async () => {
    const stream = await suite.open();
    await read(stream, (_, parsed) => (parsed as { type?: string } | null)?.type === 'ready');
    suite.fake.closeSessions(1011);
    const seen = await read(stream, () => false);
    expect(seen.at(-1)?.event).toMatchObject({
      type: 'ModelStreamError',
      errorCode: 'ModelStreamError',
      message: expect.stringContaining('1011'),
    });
    stream.close();
  });

  test('a request signed with a wrong secret or an unknown key is rejected with 403', async () => {
    await expect(suite.open({ credentials: { ...LOCAL_CREDENTIALS, secretAccessKey: 'wrong' } })).rejects.toMatchObject(
      {
        status: 403,
        code: 'InvalidSignatureException',
      },
    );
    await expect(suite.open({ credentials: { accessKeyId: 'AKIAOTHER', secretAccessKey: 'x' } })).rejects.toMatchObject(
      {
        status: 403,
        code: 'UnrecognizedClientException',
      },
    );
  });

  test('an unknown endpoint name is a ValidationError', async () => {
    await expect(suite.open({ endpointName: 'other' })).rejects.toMatchObject({ status: 400, code: 'ValidationError' });
  });

  test('a tampered event is rejected: the router answers InvalidSignatureException and ends the stream', async () => {
    // Hand-built client: a correctly signed request, then one good event and one whose payload
    // was changed after signing.
    const signer = createSigner(LOCAL_CREDENTIALS, REGION);
    const url = new URL(suite.router.url);
    const request = await signer.sign(
      new HttpRequest({
        method: 'POST',
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: `/endpoints/${NAME}/invocations-bidirectional-stream`,
        headers: {
          host: url.host,
          'content-type': EVENT_STREAM_CONTENT_TYPE,
          'x-amz-content-sha256': STREAMING_PAYLOAD_HASH,
        },
      }),
    );
    let prior = /Signature=(\w+)$/.exec(String(request.headers.authorization))![1]!;
    const signEvent = async (inner: Uint8Array, sent: Uint8Array = inner) => {
      const date = { ':date': { type: 'timestamp' as const, value: new Date() } };
      const { signature } = await signer.sign(
        { message: { headers: date, body: inner }, priorSignature: prior },
        { signingDate: date[':date'].value },
      );
      prior = signature;
      return codec.encode({
        headers: { ...date, ':chunk-signature': { type: 'binary', value: Buffer.from(signature, 'hex') } },
        body: sent,
      });
    };
    const session = connect(suite.router.url);
    const h2 = session.request({ ...request.headers, ':method': 'POST', ':path': request.path });
    h2.write(await signEvent(encodePayloadPart({ bytes: json({ type: 'config' }), dataType: 'UTF8' })));
    const honest = encodePayloadPart({ bytes: json({ type: 'text', text: 'Hi.' }), dataType: 'UTF8' });
    const tampered = encodePayloadPart({ bytes: json({ type: 'text', text: 'Bye' }), dataType: 'UTF8' });
    h2.write(await signEvent(honest, tampered));
    const events: ResponseEvent[] = [];
    for await (const message of readMessages(h2)) events.push(decodeResponseEvent(message)!);
    session.close();
    expect(events.at(-1)).toMatchObject({ type: 'exception', name: 'InvalidSignatureException' });
    expect(suite.fake.received.some(({ message }) => JSON.stringify(message).includes('Bye'))).toBe(false);
  });
});

describe('response-stream call through the local router (the SDK client)', () => {
  const client = (secret = LOCAL_CREDENTIALS.secretAccessKey) =>
    new SageMakerRuntimeClient({
      region: REGION,
      endpoint: suite.router.url,
      credentials: { ...LOCAL_CREDENTIALS, secretAccessKey: secret },
    });

  test('streams the container body back as PayloadParts', async () => {
    const text = 'A response stream, re-assembled.';
    const response = await client().send(
      new InvokeEndpointWithResponseStreamCommand({
        EndpointName: NAME,
        ContentType: 'application/json',
        Body: fromUtf8(JSON.stringify({ text, format: 'pcm_s16le' })),
      }),
    );
    expect(response.ContentType).toMatch(/^audio\/L16/);
    const parts: Uint8Array[] = [];
    for await (const event of response.Body!) if (event.PayloadPart?.Bytes) parts.push(event.PayloadPart.Bytes);
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(parts)).toEqual(fakeAudio(text));
  });

  test('a wrong secret is rejected with InvalidSignatureException; a container 400 is a ModelError', async () => {
    const command = new InvokeEndpointWithResponseStreamCommand({ EndpointName: NAME, Body: fromUtf8('{"text":"x"}') });
    await expect(client('wrong').send(command)).rejects.toMatchObject({
      name: 'InvalidSignatureException',
      $metadata: { httpStatusCode: 403 },
    });
    const bad = new InvokeEndpointWithResponseStreamCommand({ EndpointName: NAME, Body: fromUtf8('{"text":""}') });
    await expect(client().send(bad)).rejects.toMatchObject({ name: 'ModelError', OriginalStatusCode: 400 });
  });
});
