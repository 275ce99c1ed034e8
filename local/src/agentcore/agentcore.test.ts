// The gateway to a deployed runtime, with AgentCore's data plane stood in for on loopback (it
// checks SigV4 signatures and passes turns to the real local agent): SSE turns through
// InvokeAgentRuntime, WebSocket turns through a presigned /ws URL, from the CLI's client and
// through the web server's gateway mode.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TurnRecorder } from '../caller/timeline.ts';
import { streamTurn, type Transport } from '../caller/turn-client.ts';
import { AgentCoreTarget, parseRuntimeArn } from './agentcore.ts';
import { parseLocalOptions } from '../stack/options.ts';
import { startLocalStack, type LocalStack } from '../stack/stack.ts';
import { startAgentCoreStandIn, STAND_IN_CREDENTIALS, type AgentCoreStandIn } from '../testing/agentcore-stand-in.ts';
import { agentCoreUpstream } from '../web-server/upstream.ts';
import { startWebServer, type WebServer } from '../web-server/web-server.ts';

const ARN = 'arn:aws:bedrock-agentcore:us-west-2:123456789012:runtime/kokoro_agent-AbC123';
const PROMPT = 'Hello from the gateway. It speaks twice!';

let stack: LocalStack;
let dataPlane: AgentCoreStandIn;
let target: AgentCoreTarget;
let gateway: WebServer;

beforeAll(async () => {
  stack = await startLocalStack(
    parseLocalOptions(['--offline', '--port', '0'], { ECHO_FIRST_TOKEN_MS: '10', ECHO_TOKENS_PER_SECOND: '400' }),
  );
  dataPlane = await startAgentCoreStandIn(stack.url, ARN);
  target = new AgentCoreTarget({
    arn: ARN,
    endpoint: dataPlane.endpoint,
    credentials: async () => STAND_IN_CREDENTIALS,
  });
  gateway = await startWebServer({
    port: 0,
    upstream: agentCoreUpstream(
      new AgentCoreTarget({ arn: ARN, endpoint: dataPlane.endpoint, credentials: async () => STAND_IN_CREDENTIALS }),
    ),
    info: {
      llm: { name: 'remote', description: 'remote' },
      model: { kind: 'remote', description: 'remote' },
      target: { kind: 'agentcore', description: ARN },
    },
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  target?.destroy();
  await dataPlane?.close();
  await stack?.close();
});

async function turn(
  over: URL | AgentCoreTarget,
  transport: Transport,
  sessionId?: string,
  prompt = PROMPT,
): Promise<TurnRecorder> {
  const rec = new TurnRecorder();
  const t = streamTurn({
    target: over,
    transport,
    request: { prompt, format: 'pcm_s16le' },
    ...(sessionId ? { sessionId } : {}),
  });
  for await (const event of t.events) rec.add(event);
  return rec;
}

function expectWholeTurn(rec: TurnRecorder): void {
  expect(rec.errors).toEqual([]);
  expect(rec.done).toBe(true);
  expect(rec.text).toBe(PROMPT);
  expect(rec.sentences.map((s) => s.text)).toEqual(['Hello from the gateway.', 'It speaks twice!']);
  expect(rec.audioBytes / 2).toBeCloseTo((rec.metrics!.audio_ms * 24000) / 1000, -1);
}

describe('AgentCore runtime ARN', () => {
  test('parses region, account and id; refuses anything else', () => {
    expect(parseRuntimeArn(ARN)).toEqual({
      arn: ARN,
      region: 'us-west-2',
      account: '123456789012',
      runtimeId: 'kokoro_agent-AbC123',
    });
    expect(() => parseRuntimeArn('arn:aws:lambda:us-west-2:123456789012:function/x')).toThrow(
      /not an AgentCore runtime ARN/,
    );
  });
});

describe('gateway to a deployed runtime', () => {
  for (const transport of ['sse', 'ws'] as const) {
    test(`${transport}: a signed turn with a session id reaches the runtime and streams back whole`, async () => {
      const sessionId = `test-session-${transport}-0123456789abcdefghijkl`;
      const before = dataPlane.calls.length;
      expectWholeTurn(await turn(target, transport, sessionId));
      expect(dataPlane.calls.slice(before)).toEqual([
        { kind: transport === 'sse' ? 'invoke' : 'ws', arn: ARN, sessionId, signed: true },
      ]);
    });

    test(`${transport}: the web server in gateway mode relays the page's turns, with the page's session id`, async () => {
      const before = dataPlane.calls.length;
      const sessionId = `page-${transport}-0123456789abcdefghijklmnopqrstuvwxyz`;
      expectWholeTurn(await turn(new URL(gateway.url), transport, sessionId));
      expectWholeTurn(await turn(new URL(gateway.url), transport, 'too-short')); // replaced by one of its own
      const [call, other] = dataPlane.calls.slice(before);
      expect(call).toEqual({ kind: transport === 'sse' ? 'invoke' : 'ws', arn: ARN, sessionId, signed: true });
      expect(other!.sessionId).toMatch(/^kokoro-speech-[0-9a-f-]{36}$/);
    });

    test(`${transport}: the runtime session is the conversation: a second turn remembers the first`, async () => {
      const sessionId = `memory-${transport}-0123456789abcdefghijklmnopqrstuvwxyz`;
      await turn(new URL(gateway.url), transport, sessionId, 'My name is Ada.');
      const second = await turn(new URL(gateway.url), transport, sessionId, 'What did I say before?');
      expect(second.text).toBe('You said: My name is Ada.');
      const fresh = await turn(
        target,
        transport,
        `other-${transport}-0123456789abcdefghijklmnopqrstuvwxyz`,
        'What did I say before?',
      );
      expect(fresh.text).toBe('You have not said anything before.');
    });

    test(`${transport}: a wrong secret is refused by the runtime and reported`, async () => {
      const wrong = new AgentCoreTarget({
        arn: ARN,
        endpoint: dataPlane.endpoint,
        credentials: async () => ({ ...STAND_IN_CREDENTIALS, secretAccessKey: 'wrong' }),
      });
      try {
        await expect(turn(wrong, transport)).rejects.toThrow(
          transport === 'sse' ? /signature/ : /Unexpected server response: 403/,
        );
        expect(dataPlane.calls.at(-1)).toMatchObject({ signed: false });
      } finally {
        wrong.destroy();
      }
    });
  }
});
