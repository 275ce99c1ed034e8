// Calls to a deployed AgentCore runtime with the user's AWS credentials: SSE turns through
// InvokeAgentRuntime, WebSocket turns through a SigV4-presigned wss:// URL of its /ws path.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { BedrockAgentCoreClient, InvokeAgentRuntimeCommand } from '@aws-sdk/client-bedrock-agentcore';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

const ARN_PATTERN = /^arn:aws[a-z-]*:bedrock-agentcore:([a-z0-9-]+):(\d{12}):runtime\/([A-Za-z0-9_-]+)$/;
/** AgentCore requires runtime session ids of at least 33 characters. */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{33,256}$/;
/** AgentCore refuses presigned WebSocket URLs valid for longer than this. */
const MAX_PRESIGN_SECONDS = 300;

export interface RuntimeArn {
  arn: string;
  region: string;
  account: string;
  runtimeId: string;
}

export function isRuntimeArn(value: string): boolean {
  return ARN_PATTERN.test(value);
}

export function parseRuntimeArn(arn: string): RuntimeArn {
  const m = ARN_PATTERN.exec(arn);
  if (!m) {
    throw new Error(
      `not an AgentCore runtime ARN: ${JSON.stringify(arn)} (expected arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>)`,
    );
  }
  return { arn, region: m[1]!, account: m[2]!, runtimeId: m[3]! };
}

export function newRuntimeSessionId(): string {
  return `kokoro-speech-${randomUUID()}`; // 50 characters
}

export function isRuntimeSessionId(value: string): boolean {
  return SESSION_ID_PATTERN.test(value);
}

export interface AgentCoreTargetOptions {
  arn: string;
  /** Endpoint qualifier (default: the runtime's DEFAULT endpoint). */
  qualifier?: string;
  /** Override of the data-plane endpoint (https://...), e.g. a local stand-in in tests. */
  endpoint?: string;
  credentials?: AwsCredentialIdentityProvider;
}

/** One deployed runtime: invoke it over SSE, or presign its WebSocket. */
export class AgentCoreTarget {
  readonly runtime: RuntimeArn;
  readonly qualifier: string | undefined;
  readonly endpoint: URL;
  readonly #credentials: AwsCredentialIdentityProvider;
  readonly #client: BedrockAgentCoreClient;

  constructor(options: AgentCoreTargetOptions) {
    this.runtime = parseRuntimeArn(options.arn);
    this.qualifier = options.qualifier;
    this.endpoint = new URL(options.endpoint ?? `https://bedrock-agentcore.${this.runtime.region}.amazonaws.com`);
    this.#credentials = options.credentials ?? defaultProvider();
    this.#client = new BedrockAgentCoreClient({
      region: this.runtime.region,
      credentials: this.#credentials,
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      maxAttempts: 1, // a turn is not idempotent from the listener's point of view
    });
  }

  /** POST the turn request; resolves with the raw SSE body once the runtime answered. */
  async invoke(
    body: Uint8Array,
    sessionId: string,
    signal?: AbortSignal,
  ): Promise<{ contentType: string; body: Readable }> {
    const out = await this.#client.send(
      new InvokeAgentRuntimeCommand({
        agentRuntimeArn: this.runtime.arn,
        runtimeSessionId: sessionId,
        payload: body,
        contentType: 'application/json',
        accept: 'text/event-stream',
        ...(this.qualifier === undefined ? {} : { qualifier: this.qualifier }),
      }),
      signal === undefined ? {} : { abortSignal: signal },
    );
    if (!out.response) throw new Error('InvokeAgentRuntime returned no body');
    return { contentType: out.contentType ?? 'text/event-stream', body: out.response as Readable };
  }

  /** A wss:// URL of the runtime's /ws path, presigned with SigV4 (valid for `expiresIn` s). */
  async presignWebSocket(sessionId: string, expiresIn = MAX_PRESIGN_SECONDS): Promise<string> {
    if (expiresIn > MAX_PRESIGN_SECONDS) throw new RangeError(`presigned URLs last at most ${MAX_PRESIGN_SECONDS} s`);
    const query: Record<string, string> = { 'X-Amzn-Bedrock-AgentCore-Runtime-Session-Id': sessionId };
    if (this.qualifier !== undefined) query['qualifier'] = this.qualifier;
    const request = new HttpRequest({
      method: 'GET',
      protocol: 'https:',
      hostname: this.endpoint.hostname,
      ...(this.endpoint.port === '' ? {} : { port: Number(this.endpoint.port) }),
      path: `/runtimes/${encodeURIComponent(this.runtime.arn)}/ws`,
      query,
      headers: { host: this.endpoint.host },
    });
    const signer = new SignatureV4({
      service: 'bedrock-agentcore',
      region: this.runtime.region,
      credentials: this.#credentials,
      sha256: Sha256,
    });
    const signed = await signer.presign(request, { expiresIn });
    const qs = new URLSearchParams(signed.query as Record<string, string>).toString();
    const scheme = this.endpoint.protocol === 'http:' ? 'ws' : 'wss';
    return `${scheme}://${this.endpoint.host}${signed.path}?${qs}`;
  }

  destroy(): void {
    this.#client.destroy();
  }
}

export type { AwsCredentialIdentity };
