import { afterEach, describe, expect, test } from '@jest/globals';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@smithy/core/checksum';
import { startTracing, type Tracing } from '@kokoro-speech/protocol/observability';
import { OtlpReceiver } from '@kokoro-speech/protocol/otlp-receiver';
import { XRayOtlpExporter, xrayRegion } from './xray-exporter.ts';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const warnings: string[] = [];
let receiver: OtlpReceiver | undefined;
let tracing: Tracing | undefined;
afterEach(async () => {
  await tracing?.shutdown();
  await receiver?.close();
  warnings.length = 0;
});

describe('xrayRegion', () => {
  test("an X-Ray OTLP endpoint's region; null for any other URL", () => {
    expect(xrayRegion('https://xray.eu-west-1.amazonaws.com/v1/traces')).toBe('eu-west-1');
    expect(xrayRegion('https://xray.us-gov-west-1.amazonaws.com/v1/traces')).toBe('us-gov-west-1');
    expect(xrayRegion('http://127.0.0.1:4318/v1/traces')).toBeNull();
    expect(xrayRegion('https://xray.eu-west-1.amazonaws.com.evil.example/v1/traces')).toBeNull();
    expect(xrayRegion('not a url')).toBeNull();
  });
});

describe('XRayOtlpExporter', () => {
  test('sends OTLP/JSON signed with SigV4 for xray in the region: the signature checks out', async () => {
    receiver = await OtlpReceiver.start();
    const exporter = new XRayOtlpExporter({ url: receiver.tracesUrl, region: 'eu-west-1', credentials });
    tracing = startTracing({}, { serviceName: 'kokoro-agent', warn: (m) => void warnings.push(m), exporter });
    tracing.tracer.startSpan('kokoro.turn').end();
    await tracing.flush();
    expect(receiver.spans.map((s) => s.name)).toEqual(['kokoro.turn']);
    expect(warnings).toEqual([]);

    const { headers, body, path, method } = receiver.lastRequest!;
    const authorization = String(headers.authorization);
    expect(authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/xray\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/,
    );
    // Signed again here from what arrived (the signed headers, the body, the request's time): the same signature.
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
    const signedHeaders = Object.fromEntries(signedNames.map((name) => [name, String(headers[name])]));
    const amzDate = String(headers['x-amz-date']);
    const signingDate = new Date(
      `${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`,
    );
    const again = await new SignatureV4({ service: 'xray', region: 'eu-west-1', credentials, sha256: Sha256 }).sign(
      new HttpRequest({ method, hostname: '127.0.0.1', path, headers: signedHeaders, body: new Uint8Array(body) }),
      { signingDate },
    );
    expect(again.headers.authorization).toBe(authorization);
    expect(headers['content-type']).toBe('application/json');
  });

  test('an error answer fails the export: one warning for several batches', async () => {
    receiver = await OtlpReceiver.start();
    const exporter = new XRayOtlpExporter({
      url: `${receiver.url}/elsewhere`, // the receiver answers 404 off /v1/traces
      region: 'eu-west-1',
      credentials,
    });
    tracing = startTracing({}, { serviceName: 'kokoro-agent', warn: (m) => void warnings.push(m), exporter });
    for (let i = 0; i < 3; i++) {
      tracing.tracer.startSpan(`lost ${i}`).end();
      await tracing.flush();
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/answered 404/);
  });
});
