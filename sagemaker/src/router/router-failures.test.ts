// The local router's failures and its modelled AWS behaviours, against the fake protocol-v1 peer:
// an unreachable or failing container, lost pongs, variants, part splitting, stream lifetime, bad
// requests and options.
import { describe, expect, jest, test } from '@jest/globals';
import { connect } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { InvokeEndpointWithResponseStreamCommand, SageMakerRuntimeClient } from '@aws-sdk/client-sagemaker-runtime';
import { fromUtf8 } from '@smithy/util-utf8';
import type { ResponseEvent } from '../client/index.ts';
import { fakeAudio, logCapture } from '@kokoro-speech/protocol/testing';
import { createLogger } from '@kokoro-speech/protocol/server';
import { LOCAL_CREDENTIALS } from './credentials.ts';
import { json, NAME, read, REGION, suiteRouter } from '../testing/router-suite.ts';
import { startLocalSageMakerRouter } from './router.ts';

const suite = suiteRouter();

describe('router and container failures', () => {
  test('an unreachable container is a 424 ModelError on both calls', async () => {
    const lonely = await startLocalSageMakerRouter({ containerUrl: 'http://127.0.0.1:1' });
    try {
      await expect(suite.open({ endpoint: lonely.url })).rejects.toMatchObject({ status: 424, code: 'ModelError' });
      const client = new SageMakerRuntimeClient({
        region: REGION,
        endpoint: lonely.url,
        credentials: LOCAL_CREDENTIALS,
        maxAttempts: 1,
      });
      await expect(
        client.send(
          new InvokeEndpointWithResponseStreamCommand({ EndpointName: NAME, Body: fromUtf8('{"text":"x"}') }),
        ),
      ).rejects.toMatchObject({ name: 'ModelError' });
    } finally {
      await lonely.close();
    }
  });

  test('what fails on its side goes to its logger: a failing container (warn), a refused request (debug)', async () => {
    const logs = logCapture();
    const lonely = await startLocalSageMakerRouter({
      containerUrl: 'http://127.0.0.1:1',
      logger: createLogger('sagemaker-local', 'debug', logs.stream),
    });
    try {
      await expect(suite.open({ endpoint: lonely.url })).rejects.toMatchObject({ status: 424 });
      expect((await fetch(`${lonely.url}/nowhere`, { method: 'POST' })).status).toBe(404);
    } finally {
      await lonely.close();
    }
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: 40,
        service: 'sagemaker-local',
        msg: 'container instance failed',
        instance: 'http://127.0.0.1:1',
        reason: expect.stringMatching(/^cannot reach its WebSocket at ws:\/\/127\.0\.0\.1:1\/.+: /),
      }),
      expect.objectContaining({
        level: 20,
        msg: 'no operation at POST /nowhere',
        status: 404,
        code: 'UnknownOperationException',
      }),
    ]);
  });

  test('the router pings the container and ends the stream with ModelStreamError when pongs stop', async () => {
    const pings: number[] = [];
    const silent = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong: false });
    await new Promise((resolve) => silent.once('listening', resolve));
    silent.on('connection', (ws) => {
      ws.on('ping', () => pings.push(Date.now()));
      ws.send(JSON.stringify({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le', voices: [] }));
    });
    const pinging = await startLocalSageMakerRouter({
      containerUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      pingIntervalMs: 10,
    });
    const stream = await suite.open({ endpoint: pinging.url });
    const seen = await read(stream, () => false);
    expect(pings.length).toBe(5);
    expect(seen.at(-1)?.event).toMatchObject({ type: 'ModelStreamError' });
    stream.close();
    await pinging.close();
    await new Promise((resolve) => silent.close(resolve));
  });
});

describe('the modelled behaviours AWS documents and those the router infers', () => {
  test('X-Amzn-Invoked-Production-Variant on both operations; a target variant the endpoint lacks is a ValidationError', async () => {
    const stream = await suite.open();
    expect(stream.invokedProductionVariant).toBe('AllTraffic');
    stream.close();
    const targeted = await suite.open({ targetVariant: 'AllTraffic' });
    expect(targeted.invokedProductionVariant).toBe('AllTraffic');
    targeted.close();
    await expect(suite.open({ targetVariant: 'blue' })).rejects.toMatchObject({
      status: 400,
      code: 'ValidationError',
      message: expect.stringContaining('no production variant blue'),
    });
    const response = await new SageMakerRuntimeClient({
      region: REGION,
      endpoint: suite.router.url,
      credentials: LOCAL_CREDENTIALS,
    }).send(new InvokeEndpointWithResponseStreamCommand({ EndpointName: NAME, Body: fromUtf8('{"text":"Hi."}') }));
    expect(response.InvokedProductionVariant).toBe('AllTraffic');
    for await (const _ of response.Body!);
    const blue = await startLocalSageMakerRouter({ containerUrl: suite.fake.url, variantName: 'blue' });
    try {
      const s = await suite.open({ endpoint: blue.url });
      expect(s.invokedProductionVariant).toBe('blue');
      s.close();
    } finally {
      await blue.close();
    }
  });

  test('container messages over maxResponsePartBytes come back as PARTIAL..COMPLETE parts of one DataType', async () => {
    const splitting = await startLocalSageMakerRouter({ containerUrl: suite.fake.url, maxResponsePartBytes: 50 });
    try {
      const stream = await suite.open({ endpoint: splitting.url });
      stream.send({ bytes: json({ type: 'config' }), dataType: 'UTF8' });
      stream.send({ bytes: json({ type: 'text', text: 'Split into parts.', id: 's' }), dataType: 'UTF8' });
      stream.send({ bytes: json({ type: 'end' }), dataType: 'UTF8' });
      const messages: Array<{ dataType: string | undefined; bytes: Buffer; parts: number }> = [];
      let run: Array<Extract<ResponseEvent, { type: 'PayloadPart' }>> = [];
      for await (const event of stream.responses) {
        if (event.type !== 'PayloadPart') throw new Error(`unexpected ${event.type}`);
        expect(event.bytes.byteLength).toBeLessThanOrEqual(50);
        run.push(event);
        if (event.completionState === 'PARTIAL') continue;
        // A run is PARTIAL..PARTIAL then COMPLETE, or one part with no CompletionState.
        expect(run.map((p) => p.completionState)).toEqual(
          run.length === 1 ? [undefined] : [...run.slice(1).map(() => 'PARTIAL'), 'COMPLETE'],
        );
        expect(new Set(run.map((p) => p.dataType)).size).toBe(1);
        messages.push({ dataType: event.dataType, bytes: Buffer.concat(run.map((p) => p.bytes)), parts: run.length });
        run = [];
        if (event.dataType === 'UTF8' && JSON.parse(messages.at(-1)!.bytes.toString()).type === 'done') break;
      }
      stream.close();
      const text = messages.filter((m) => m.dataType === 'UTF8').map((m) => JSON.parse(m.bytes.toString()).type);
      expect(text).toEqual(['ready', 'audio_start', 'audio_end', 'done']);
      expect(Buffer.concat(messages.filter((m) => m.dataType === 'BINARY').map((m) => m.bytes))).toEqual(
        fakeAudio('Split into parts.'),
      );
      expect(messages.some((m) => m.parts > 1)).toBe(true);
      expect(messages.some((m) => m.parts === 1)).toBe(true); // {"type":"done"} fits in one part
    } finally {
      await splitting.close();
    }
  });

  test('a stream lives until maxStreamLifetimeMs, then ends with ModelStreamError ModelInvocationTimeExceeded; the container socket closes', async () => {
    const closed = Promise.withResolvers<number>();
    const peer = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => peer.once('listening', resolve));
    peer.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'ready', protocol: 1, sample_rate: 24000, format: 'pcm_s16le', voices: [] }));
      // An echo: the answer to a message shows that the stream is still open.
      ws.on('message', (data) => ws.send(data.toString()));
      ws.on('close', (code) => closed.resolve(code));
    });
    const limited = await startLocalSageMakerRouter({
      containerUrl: `http://127.0.0.1:${(peer.address() as AddressInfo).port}`,
      maxStreamLifetimeMs: 150,
    });
    // The router's lifetime timer runs on a clock the test moves, so the stream's last moment is
    // checked exactly, whatever the machine's load: open at 149 ms, ended at 150.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance', 'Date'] });
    try {
      const stream = await suite.open({ endpoint: limited.url });
      expect((await read(stream, () => true)).map(({ parsed }) => parsed)).toMatchObject([{ type: 'ready' }]);
      jest.advanceTimersByTime(149);
      stream.send({ bytes: json({ type: 'still-open' }), dataType: 'UTF8' });
      expect((await read(stream, () => true)).map(({ parsed }) => parsed)).toEqual([{ type: 'still-open' }]);
      jest.advanceTimersByTime(1);
      const seen = await read(stream, () => false);
      expect(seen.map(({ event }) => event.type)).toEqual(['ModelStreamError']);
      expect(seen.at(-1)!.event).toMatchObject({
        errorCode: 'ModelInvocationTimeExceeded',
        message: expect.stringContaining('maximum duration of 150 ms'),
      });
      await closed.promise;
      stream.close();
    } finally {
      jest.useRealTimers();
      await limited.close();
      await new Promise((resolve) => peer.close(resolve));
    }
  });

  test('a host header that differs from :authority is refused (RFC 9113 section 8.3.1)', async () => {
    const session = connect(suite.router.url);
    const h2 = session.request({
      ':method': 'POST',
      ':path': `/endpoints/${NAME}/invocations-bidirectional-stream`,
      ':authority': new URL(suite.router.url).host,
      host: 'elsewhere.example:8443',
    });
    h2.end();
    const [status, headers] = await new Promise<[number, Record<string, unknown>]>((resolve) =>
      h2.on('response', (h) => resolve([Number(h[':status']), h])),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of h2) chunks.push(chunk as Buffer);
    session.close();
    expect(status).toBe(400);
    expect(headers['x-amzn-errortype']).toBe('InputValidationError');
    expect(JSON.parse(Buffer.concat(chunks).toString()).Message).toMatch(/differs from :authority/);
  });

  test('a malformed percent-encoding in the endpoint name is a 400, not a crash', async () => {
    const response = await fetch(`${suite.router.url}/endpoints/%zz/invocations-response-stream`, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-amzn-errortype')).toBe('InputValidationError');
    expect((await fetch(`${suite.router.url}/ping`)).status).toBe(200); // still serving
  });

  test('bad router options are refused with the option named', async () => {
    const start = (extra: object) => startLocalSageMakerRouter({ containerUrl: suite.fake.url, ...extra });
    await expect(start({ maxResponsePartBytes: 0 })).rejects.toThrow(/maxResponsePartBytes/);
    await expect(start({ maxStreamLifetimeMs: 2 ** 31 })).rejects.toThrow(/maxStreamLifetimeMs/);
    await expect(start({ variantName: '-blue' })).rejects.toThrow(/variantName: X-Amzn-SageMaker-Target-Variant/);
  });
});
