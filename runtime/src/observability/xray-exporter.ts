// Spans to CloudWatch's OTLP traces endpoint, https://xray.<region>.amazonaws.com/v1/traces, which
// takes OTLP over HTTP (JSON or protobuf) only from SigV4-signed requests, service `xray`
// (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch-OTLPEndpoint.html).
// OpenTelemetry's own exporter cannot sign, so this one serialises the batch with OpenTelemetry's
// JSON serializer and signs it with the same @smithy/signature-v4 the AWS SDK uses; credentials
// come from the default chain (AgentCore gives the execution role's). The agent uses it when the
// traces endpoint is an X-Ray one (xrayRegion); any other endpoint gets the plain OTLP exporter.
import { Sha256 } from '@smithy/core/checksum';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** The region of an X-Ray OTLP traces URL, or null when the URL is not one. */
export function xrayRegion(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return /^xray\.([a-z0-9-]+)\.amazonaws\.com$/.exec(host)?.[1] ?? null;
}

export interface XRayExporterOptions {
  url: string;
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Per request (default 10 s, OpenTelemetry's export timeout). */
  timeoutMs?: number;
}

export class XRayOtlpExporter implements SpanExporter {
  readonly #url: URL;
  readonly #signer: SignatureV4;
  readonly #http: NodeHttpHandler;
  readonly #pending = new Set<Promise<void>>();

  constructor(options: XRayExporterOptions) {
    this.#url = new URL(options.url);
    this.#signer = new SignatureV4({
      service: 'xray',
      region: options.region,
      credentials: options.credentials,
      sha256: Sha256,
    });
    this.#http = new NodeHttpHandler({ requestTimeout: options.timeoutMs ?? 10_000 });
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const sent = this.#send(spans).then(
      () => done({ code: ExportResultCode.SUCCESS }),
      (error: unknown) =>
        done({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) }),
    );
    this.#pending.add(sent);
    void sent.finally(() => this.#pending.delete(sent));
  }

  async forceFlush(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.#http.destroy();
  }

  async #send(spans: ReadableSpan[]): Promise<void> {
    const body = JsonTraceSerializer.serializeRequest(spans);
    if (!body) throw new Error('the spans could not be serialised');
    const url = this.#url;
    const request = new HttpRequest({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      headers: { host: url.host, 'content-type': 'application/json', 'content-length': String(body.byteLength) },
      body,
    });
    const signed = await this.#signer.sign(request);
    const { response } = await this.#http.handle(signed as HttpRequest);
    const chunks: Buffer[] = [];
    for await (const chunk of response.body as AsyncIterable<Buffer>) chunks.push(chunk);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const text = Buffer.concat(chunks).toString('utf8').slice(0, 300);
      throw new Error(`${url.href} answered ${response.statusCode}: ${text}`);
    }
  }
}
