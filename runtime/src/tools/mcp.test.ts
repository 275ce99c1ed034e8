// MCP clients as Strands takes them, end to end: an MCP server on loopback (Streamable HTTP, the
// official SDK's server), Strands' McpClient handed to the agent server, and a turn whose echo
// model calls the server's tool mid-answer over SSE.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClient } from '@strands-agents/sdk';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { ToolEvent } from '@kokoro-speech/protocol';
import { EchoProvider } from '../llm/echo.ts';
import { WebSocketTransport } from '../tts/websocket-transport.ts';
import { startAgentServer, type AgentServer } from '../server/app.ts';
import { startTestContainer, type TestContainer } from '../testing/harness.ts';
import { sseTurn } from '../testing/turn-clients.ts';

let container: TestContainer;
let http: Server;
let agent: AgentServer;
let client: McpClient;
const calls: string[] = [];

beforeAll(async () => {
  container = await startTestContainer();
  // Stateless Streamable HTTP: a server and transport per request, as the SDK's docs show.
  http = createServer(async (req, res) => {
    const server = new McpServer({ name: 'capitals', version: '1.0.0' });
    server.registerTool(
      'capital_of',
      { description: 'The capital city of a country.', inputSchema: { country: z.string() } },
      async ({ country }) => {
        calls.push(country);
        return { content: [{ type: 'text', text: country === 'France' ? 'Paris' : 'unknown' }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await server.connect(transport);
    let body = '';
    for await (const chunk of req) body += chunk;
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  client = new McpClient({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` });
  agent = await startAgentServer({
    llm: new EchoProvider({ firstTokenMs: 0, tokensPerSecond: 3000 }),
    tts: new WebSocketTransport({ url: container.server.wsUrl }),
    tools: { tools: [client] },
  });
});
afterAll(async () => {
  await agent?.close();
  await client?.disconnect().catch(() => undefined);
  http?.closeAllConnections();
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  await container?.close();
});

test("an MCP server's tool, called mid-answer in a conversation turn over SSE", async () => {
  const { status, events } = await sseTurn(agent.url, {
    prompt: 'Let me look it up.<tool name="capital_of">{"country": "France"}</tool> The capital is {result}.',
    session_id: 'mcp-test-session-0123456789abcdefghij',
  });
  expect(status).toBe(200);
  expect(calls).toEqual(['France']);
  const text = events
    .filter((e) => e.type === 'text')
    .map((e) => (e as { delta: string }).delta)
    .join('');
  expect(text).toBe('Let me look it up. The capital is Paris.');
  expect(events.filter((e): e is ToolEvent => e.type === 'tool').map((t) => [t.name, t.state, t.error])).toEqual([
    ['capital_of', 'started', undefined],
    ['capital_of', 'ended', undefined],
  ]);
});
