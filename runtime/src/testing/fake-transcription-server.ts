// A loopback OpenAI-compatible transcription server for tests: POST /v1/audio/transcriptions with
// a multipart body, checked as a real server would (a `model`, a `file` that is a 16-bit mono PCM
// WAV), answered from the test's script (a text, an HTTP error, a stall). The multipart body is
// parsed by Node's own fetch Request (undici), not by hand.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: words, an error status, or no answer at all (the client must time out). */
export type TranscriptionReply = { text: string } | { status: number; message?: string } | { stall: true };

export interface TranscriptionRequest {
  model: string;
  language: string | null;
  responseFormat: string | null;
  authorization: string | null;
  fileName: string;
  sampleRate: number;
  /** The WAV's samples. */
  samples: Int16Array;
}

export interface FakeTranscriptionServer {
  /** The API root to give the client, http://127.0.0.1:PORT/v1. */
  baseURL: string;
  requests: TranscriptionRequest[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const refuse = (res: ServerResponse, status: number, message: string): void =>
  json(res, status, { error: { message, type: 'invalid_request_error', param: null, code: null } });

/** Replies are used in order; when the script runs out, the last reply repeats. */
export async function startFakeTranscriptionServer(script: TranscriptionReply[]): Promise<FakeTranscriptionServer> {
  const requests: TranscriptionRequest[] = [];
  const stalled: ServerResponse[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => refuse(res, 400, error.message));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions')
      return refuse(res, 404, `no route ${req.method} ${req.url}`);
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('multipart/form-data')) return refuse(res, 415, `expected multipart/form-data, got ${type}`);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: Buffer.concat(chunks),
    }).formData();
    const model = form.get('model');
    const file = form.get('file');
    if (typeof model !== 'string' || model === '') return refuse(res, 400, 'you must provide a model parameter');
    if (!(file instanceof File)) return refuse(res, 400, 'you must provide a file');
    const wav = Buffer.from(await file.arrayBuffer());
    const problem = wavProblem(wav);
    if (problem) return refuse(res, 400, `file is not a 16-bit mono PCM WAV: ${problem}`);
    const data = wav.subarray(44);
    requests.push({
      model,
      language: form.get('language') as string | null,
      responseFormat: form.get('response_format') as string | null,
      authorization: req.headers.authorization ?? null,
      fileName: file.name,
      sampleRate: wav.readUInt32LE(24),
      samples: new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length)),
    });
    const reply = script[Math.min(next++, script.length - 1)] ?? { text: '' };
    if ('stall' in reply) return void stalled.push(res);
    if ('status' in reply)
      return json(res, reply.status, {
        error: { message: reply.message ?? `scripted ${reply.status}`, type: 'server_error', param: null, code: null },
      });
    json(res, 200, { text: reply.text });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function wavProblem(wav: Buffer): string | null {
  if (wav.length < 44) return 'shorter than a WAV header';
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 16) !== 'WAVEfmt ')
    return 'no RIFF/WAVE header';
  if (wav.readUInt16LE(20) !== 1 || wav.readUInt16LE(22) !== 1 || wav.readUInt16LE(34) !== 16)
    return 'not 16-bit mono PCM';
  if (wav.toString('ascii', 36, 40) !== 'data' || wav.readUInt32LE(40) !== wav.length - 44)
    return 'data chunk size does not match the file';
  return null;
}
