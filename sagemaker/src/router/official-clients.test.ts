// The done-when proof of issue 10: a request built exactly as the official generated JavaScript
// client builds it (sagemaker/src/testing/official-js-client.ts) passes the router's checks and
// streams; so does the Python SDK's way of signing the host; the builder's shape is the shape the
// installed Bedrock runtime client (same code generator, same middleware stack, also a
// bidirectional HTTP/2 event stream) really puts on the wire; and our own client's request has
// that shape too. Captured with a raw node:http2 server, pseudo-headers included.
import { describe, expect, test } from '@jest/globals';
import { BedrockRuntimeClient, InvokeModelWithBidirectionalStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import type { Message } from '@smithy/core/event-streams';
import { toUtf8 } from '@smithy/util-utf8';
import { fakeAudio } from '@kokoro-speech/protocol/testing';
import { codec, decodeResponseEvent, openBidiStream, readMessages } from '../client/index.ts';
import type { ResponseEvent } from '../client/index.ts';
import { openAsOfficialClient } from '../testing/official-js-client.ts';
import { suitePeers } from '../testing/http2-peer.ts';
import { json, suiteRouter } from '../testing/router-suite.ts';
import type { OfficialCall } from '../testing/official-js-client.ts';
import { LOCAL_CREDENTIALS } from './credentials.ts';

const REGION = 'us-east-1';
const CREDS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };

interface Captured {
  pseudo: Record<string, string>;
  headers: Record<string, string>;
  signed: string[];
  outer: Message[];
}

const startPeer = suitePeers();

/** A raw HTTP/2 peer that records each request (raw header list, every body byte) and answers 200 with no events. */
async function recorder(): Promise<{ url: string; requests: Promise<Captured>[] }> {
  const requests: Promise<Captured>[] = [];
  const url = await startPeer((stream, _headers, _flags, raw) => {
    const pseudo: Record<string, string> = {};
    const headers: Record<string, string> = {};
    for (let i = 0; i < raw.length; i += 2) (raw[i]!.startsWith(':') ? pseudo : headers)[raw[i]!] = raw[i + 1]!;
    const chunks: Buffer[] = [];
    stream.respond({ ':status': 200, 'content-type': 'application/vnd.amazon.eventstream' });
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    requests.push(
      new Promise((resolve) =>
        stream.on('end', async () => {
          stream.end();
          const outer: Message[] = [];
          for await (const m of readMessages(
            (async function* () {
              yield Buffer.concat(chunks);
            })(),
          ))
            outer.push(m);
          const signed = /SignedHeaders=([^,]+),/.exec(headers.authorization ?? '')?.[1]?.split(';') ?? [];
          resolve({ pseudo, headers, signed, outer });
        }),
      ),
    );
  });
  return { url, requests };
}

/** The outer (signed) framing of a body: each message's header names and types, and its body size. */
const framing = (outer: Message[]) =>
  outer.map((m) => ({
    headers: Object.fromEntries(Object.entries(m.headers).map(([name, h]) => [name, h.type])),
    signatureBytes: (m.headers[':chunk-signature']?.value as Uint8Array | undefined)?.byteLength,
    empty: m.body.byteLength === 0,
  }));

async function drain(call: OfficialCall): Promise<void> {
  for await (const _ of call.response.body as AsyncIterable<unknown>);
}

describe('the shape of the official generated clients’ request', () => {
  test('the Bedrock runtime client (same generator and middleware) and the builder put the same request on the wire', async () => {
    const peer = await recorder();
    const bedrock = new BedrockRuntimeClient({ region: REGION, endpoint: peer.url, credentials: CREDS });
    async function* body() {
      yield { chunk: { bytes: json({ hello: 1 }) } };
    }
    const response = await bedrock.send(
      new InvokeModelWithBidirectionalStreamCommand({ modelId: 'amazon.nova-sonic-v1:0', body: body() }),
    );
    for await (const _ of response.body!);
    bedrock.destroy();
    const official = await openAsOfficialClient({
      endpoint: peer.url,
      region: REGION,
      credentials: CREDS,
      input: { EndpointName: 'kokoro' },
    });
    official.send({ Bytes: json({ hello: 1 }) });
    official.end();
    await drain(official);
    official.close();
    const [b, o] = await Promise.all(peer.requests);
    const host = new URL(peer.url).host;
    // Pseudo-headers: :authority carries the host; no host header at all.
    expect(b!.pseudo).toEqual({
      ':authority': host,
      ':method': 'POST',
      ':path': '/model/amazon.nova-sonic-v1%3A0/invoke-with-bidirectional-stream',
      ':scheme': 'http',
    });
    expect(o!.pseudo).toEqual({
      ':authority': host,
      ':method': 'POST',
      ':path': '/endpoints/kokoro/invocations-bidirectional-stream',
      ':scheme': 'http',
    });
    expect(Object.keys(b!.headers).sort()).toEqual(Object.keys(o!.headers).sort());
    expect(b!.headers.host).toBeUndefined();
    expect(b!.signed).toEqual([
      ':authority',
      'amz-sdk-invocation-id',
      'amz-sdk-request',
      'content-type',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amz-security-token',
      'x-amz-user-agent',
    ]);
    expect(o!.signed).toEqual(b!.signed);
    for (const name of ['content-type', 'x-amz-content-sha256', 'amz-sdk-request', 'x-amz-security-token'])
      expect([name, o!.headers[name]]).toEqual([name, b!.headers[name]]);
    // Event framing: signed outer messages of exactly :date and a 32-byte :chunk-signature, the
    // input ended by an empty one; inner messages start with the same three headers.
    expect(framing(o!.outer)).toEqual(framing(b!.outer));
    expect(framing(o!.outer).at(-1)).toEqual({
      headers: { ':date': 'timestamp', ':chunk-signature': 'binary' },
      signatureBytes: 32,
      empty: true,
    });
    const innerNames = (c: Captured) => Object.keys(codec.decode(c.outer[0]!.body).headers).slice(0, 3);
    expect(innerNames(o!)).toEqual(innerNames(b!));
    expect(innerNames(o!)).toEqual([':event-type', ':message-type', ':content-type']);
  });

  test('our client’s request has the official shape: the same pseudo-headers, signed headers and event bytes', async () => {
    const peer = await recorder();
    const input = { EndpointName: 'kokoro', TargetVariant: 'AllTraffic' };
    const official = await openAsOfficialClient({
      endpoint: peer.url,
      region: REGION,
      credentials: CREDS,
      input: { ...input, ModelInvocationPath: 'invocations-bidirectional-stream' },
    });
    const parts = [
      { bytes: json({ type: 'config' }), dataType: 'UTF8' as const },
      { bytes: new Uint8Array([1, 2, 3]), dataType: 'BINARY' as const, completionState: 'PARTIAL' as const },
      { bytes: new Uint8Array([4]), completionState: 'COMPLETE' as const },
    ];
    for (const p of parts)
      official.send({
        Bytes: p.bytes,
        ...(p.dataType && { DataType: p.dataType }),
        ...(p.completionState && { CompletionState: p.completionState }),
      });
    official.end();
    await drain(official);
    official.close();
    const ours = await openBidiStream({
      endpointName: input.EndpointName,
      targetVariant: input.TargetVariant,
      region: REGION,
      endpoint: peer.url,
      credentials: CREDS,
    });
    for (const p of parts) ours.send(p);
    ours.end();
    for await (const _ of ours.responses);
    ours.close();
    const [o, u] = await Promise.all(peer.requests);
    expect(u!.pseudo).toEqual(o!.pseudo);
    expect(u!.headers.host).toBeUndefined();
    // The SDK's own bookkeeping headers (user agent, retry attempt) are not part of the API.
    const bookkeeping = ['user-agent', 'x-amz-user-agent', 'amz-sdk-invocation-id', 'amz-sdk-request'];
    expect(Object.keys(u!.headers).sort()).toEqual(
      Object.keys(o!.headers)
        .filter((name) => !bookkeeping.includes(name))
        .sort(),
    );
    for (const name of Object.keys(u!.headers).filter((n) => !['authorization', 'x-amz-date'].includes(n)))
      expect([name, u!.headers[name]]).toEqual([name, o!.headers[name]]);
    expect(u!.signed).toEqual(o!.signed.filter((name) => !bookkeeping.includes(name)));
    expect(framing(u!.outer)).toEqual(framing(o!.outer));
    // The inner messages (the events themselves) are byte for byte the official client's.
    expect(u!.outer.map((m) => Buffer.from(m.body).toString('hex'))).toEqual(
      o!.outer.map((m) => Buffer.from(m.body).toString('hex')),
    );
  });
});

describe('the router accepts the official clients', () => {
  const suite = suiteRouter({ endpointName: 'kokoro', maxResponsePartBytes: 100 });

  /** Response events with PARTIAL..COMPLETE runs joined, as a client re-assembles them. */
  async function messages(call: OfficialCall, until: (m: { text?: unknown }) => boolean) {
    const out: Array<{ text?: { type: string }; audio?: Uint8Array; exception?: ResponseEvent }> = [];
    let run: Uint8Array[] = [];
    let partials = 0;
    for await (const message of readMessages(call.response.body as AsyncIterable<Uint8Array>)) {
      const event = decodeResponseEvent(message)!;
      if (event.type !== 'PayloadPart') {
        out.push({ exception: event });
        break;
      }
      run.push(event.bytes);
      if (event.completionState === 'PARTIAL') {
        partials++;
        continue;
      }
      const bytes = Buffer.concat(run);
      run = [];
      const m = event.dataType === 'UTF8' ? { text: JSON.parse(toUtf8(bytes)) } : { audio: bytes };
      out.push(m);
      if (until(m)) break;
    }
    return { out, partials };
  }

  test.each(['javascript', 'python'] as const)(
    'a request signed as the official %s client signs it passes the checks and streams',
    async (signAs) => {
      const call = await openAsOfficialClient({
        endpoint: suite.router.url,
        region: REGION,
        credentials: LOCAL_CREDENTIALS,
        input: { EndpointName: 'kokoro', ModelInvocationPath: 'invocations-bidirectional-stream' },
        signAs,
      });
      expect(call.response.statusCode).toBe(200);
      expect(call.response.headers['x-amzn-invoked-production-variant']).toBe('AllTraffic');
      call.send({ Bytes: json({ type: 'config' }), DataType: 'UTF8' });
      call.send({ Bytes: json({ type: 'text', text: 'From the official client.', id: 'o1' }), DataType: 'UTF8' });
      call.send({ Bytes: json({ type: 'end' }), DataType: 'UTF8' });
      const { out, partials } = await messages(call, (m) => (m.text as { type?: string } | undefined)?.type === 'done');
      expect(out.filter((m) => m.text).map((m) => m.text!.type)).toEqual(['ready', 'audio_start', 'audio_end', 'done']);
      expect(Buffer.concat(out.filter((m) => m.audio).map((m) => m.audio!))).toEqual(
        fakeAudio('From the official client.'),
      );
      expect(partials).toBeGreaterThan(0); // the container's messages came back split, and were re-joined
      call.end();
      call.close();
    },
  );

  test('what the model forbids, sent by a client that does not check first (the official one), is a 400 InputValidationError', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { ModelInvocationPath: '/invocations-bidirectional-stream' },
        /X-Amzn-SageMaker-Model-Invocation-Path .*no leading \//,
      ],
      [{ TargetVariant: 'v'.repeat(64) }, /X-Amzn-SageMaker-Target-Variant is 64 characters long/],
      [{ ModelQueryString: 'a=b c' }, /X-Amzn-SageMaker-Model-Query-String "a=b c" does not match/],
      [{ EndpointName: 'x'.repeat(64) }, /EndpointName \(the URI label\) is 64 characters long/],
    ];
    const before = suite.fake.received.length;
    for (const [input, message] of cases) {
      const call = await openAsOfficialClient({
        endpoint: suite.router.url,
        region: REGION,
        credentials: LOCAL_CREDENTIALS,
        input: { EndpointName: 'kokoro', ...input },
      });
      const chunks: Buffer[] = [];
      for await (const chunk of call.response.body as AsyncIterable<Buffer>) chunks.push(chunk);
      call.close();
      expect(call.response.statusCode).toBe(400);
      expect(call.response.headers['x-amzn-errortype']).toBe('InputValidationError');
      expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ Message: expect.stringMatching(message) });
    }
    expect(suite.fake.received.length).toBe(before); // the container never saw them
  });
});
