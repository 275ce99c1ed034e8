// A loopback stand-in for the AgentCore data plane (tests only): checks the SigV4 signature of
// InvokeAgentRuntime calls and of presigned /ws URLs against fixed credentials, checks the runtime
// ARN and session id, then passes the turn to a real agent server behind it with the session id
// in the X-Amzn-Bedrock-AgentCore-Runtime-Session-Id header, as AgentCore passes it to containers
// (the passing on is the JWT stand-in's, ../agentcore-stand-in/relay.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sha256 } from '@smithy/core/checksum';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import { WebSocketServer } from 'ws';
import { refuseUpgrade } from '@kokoro-speech/protocol/server';
import { joinWebSockets, openAgentWebSocket, relayInvocation, SESSION_HEADER } from '../agentcore-stand-in/relay.ts';

export const STAND_IN_CREDENTIALS: AwsCredentialIdentity = {
  accessKeyId: 'AKIDSTANDIN',
  secretAccessKey: 'stand-in-secret',
};
const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

export interface AgentCoreStandIn {
  endpoint: string;
  /** Every call seen: what, for which runtime and session, and whether its signature held. */
  calls: { kind: 'invoke' | 'ws'; arn: string; sessionId: string | null; signed: boolean }[];
  close(): Promise<void>;
}

function amzDate(value: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!m) throw new Error(`bad x-amz-date ${value}`);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

function signer(region: string): SignatureV4 {
  return new SignatureV4({ service: 'bedrock-agentcore', region, credentials: STAND_IN_CREDENTIALS, sha256: Sha256 });
}

/** Recomputes the Authorization header's signature over the signed headers and the body. */
async function headerSignatureHolds(req: http.IncomingMessage, url: URL, body: Buffer): Promise<boolean> {
  const m = AUTH.exec(String(req.headers.authorization ?? ''));
  if (!m || m[1] !== STAND_IN_CREDENTIALS.accessKeyId || m[3] !== 'bedrock-agentcore') return false;
  const headers: Record<string, string> = {};
  for (const name of m[4]!.split(';')) headers[name] = String(req.headers[name] ?? '');
  const request = new HttpRequest({
    method: req.method ?? 'GET',
    hostname: url.hostname,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
  });
  const signed = await signer(m[2]!).sign(request, { signingDate: amzDate(headers['x-amz-date'] ?? '') });
  return String(signed.headers['authorization']).endsWith(`Signature=${m[5]}`);
}

/** Recomputes a presigned URL's X-Amz-Signature. */
async function presignHolds(url: URL, host: string): Promise<boolean> {
  const q = Object.fromEntries(url.searchParams);
  const credential = q['X-Amz-Credential']?.split('/') ?? [];
  if (credential[0] !== STAND_IN_CREDENTIALS.accessKeyId || credential[3] !== 'bedrock-agentcore') return false;
  const query = Object.fromEntries(Object.entries(q).filter(([k]) => !k.startsWith('X-Amz-')));
  const request = new HttpRequest({
    method: 'GET',
    hostname: url.hostname,
    path: url.pathname,
    query,
    headers: { host },
  });
  const signed = await signer(credential[2]!).presign(request, {
    signingDate: amzDate(q['X-Amz-Date'] ?? ''),
    expiresIn: Number(q['X-Amz-Expires']),
  });
  return signed.query?.['X-Amz-Signature'] === q['X-Amz-Signature'];
}

function runtimeArn(pathname: string, suffix: string): string | null {
  const m = new RegExp(`^/runtimes/([^/]+)/${suffix}$`).exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}

export async function startAgentCoreStandIn(agentUrl: string, expectedArn: string): Promise<AgentCoreStandIn> {
  const calls: AgentCoreStandIn['calls'] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const arn = runtimeArn(url.pathname, 'invocations');
    const sessionId = (req.headers[SESSION_HEADER] as string | undefined) ?? null;
    const signed = await headerSignatureHolds(req, url, body);
    calls.push({ kind: 'invoke', arn: arn ?? '', sessionId, signed });
    if (!signed)
      return res
        .writeHead(403, { 'content-type': 'application/json' })
        .end('{"message":"The request signature we calculated does not match"}');
    if (arn !== expectedArn)
      return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"runtime not found"}');
    await relayInvocation(
      new URL(agentUrl),
      body,
      res,
      {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(sessionId ? { [SESSION_HEADER]: sessionId } : {}),
      },
      { [SESSION_HEADER]: sessionId ?? '' },
    );
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', async (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const arn = runtimeArn(url.pathname, 'ws');
    const signed = await presignHolds(url, String(req.headers.host));
    const sessionId = url.searchParams.get('X-Amzn-Bedrock-AgentCore-Runtime-Session-Id');
    calls.push({ kind: 'ws', arn: arn ?? '', sessionId, signed });
    if (!signed || arn !== expectedArn) {
      socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\n\r\n');
      return;
    }
    const agent = await openAgentWebSocket(new URL(agentUrl), sessionId ? { [SESSION_HEADER]: sessionId } : {});
    if ('refused' in agent) {
      return refuseUpgrade(socket, agent.refused.status, { body: agent.refused.body });
    }
    wss.handleUpgrade(req, socket, head, (client) => joinWebSockets(client, agent.socket, agent.held));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    async close() {
      for (const c of wss.clients) c.terminate();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
