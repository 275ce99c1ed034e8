// Test support: a suite's server on the stand-in model folder with the real engine (one prep
// worker), the WebSocket clients the suite opened on it, and one close for all of them.
import { afterAll, beforeAll, expect } from '@jest/globals';
import { loadKokoroEngine, type KokoroEngine } from '../engine/index.ts';
import type { Engine } from '../engine/types.ts';
import { startServer, type RunningServer, type StartServerOptions } from '../index.ts';
import type { FixtureOptions } from '../fixture/index.ts';
import { fixtureModelDir, TestClient } from './test-support.ts';
import { withSimulatedDelay } from './simulated-delay.ts';

export interface FixtureServer {
  server: RunningServer;
  /** The engine as loaded, before `wrap` (for the samples a text should make). */
  engine: KokoroEngine;
  /** Every client `connect` opened, in order. */
  clients: TestClient[];
  /** A protocol v1 client on the server, terminated by `close`. */
  connect(): Promise<TestClient>;
  /** Terminates the clients, closes the server and removes the model folder. */
  close(): Promise<void>;
}

export type FixtureServerOptions = Omit<StartServerOptions, 'engine' | 'modelDir'> & {
  /** How the stand-in model is written (durations for word timings). */
  model?: FixtureOptions;
  /** Wraps the loaded engine before the server gets it (recording, holding or failing model runs). */
  wrap?: (engine: KokoroEngine) => Engine;
};

export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const { wrap, model: written, ...start } = options;
  const model = await fixtureModelDir(written);
  let engine: KokoroEngine;
  let server: RunningServer;
  try {
    engine = await loadKokoroEngine({ modelDir: model.dir, prepWorkers: 1 });
    server = await startServer({ ...start, engine: wrap ? wrap(engine) : engine });
  } catch (error) {
    await model.remove();
    throw error;
  }
  const clients: TestClient[] = [];
  return {
    server,
    engine,
    clients,
    async connect() {
      const client = await TestClient.connect(server.wsUrl);
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.ws.terminate();
      await server.close();
      await model.remove();
    },
  };
}

/** POSTs `body` as JSON to `path` on `server`. */
export const postJson = (server: RunningServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** POSTs an OpenAI speech request to `server`: model kokoro and voice af_heart unless `body` names others. */
export const postSpeech = (server: RunningServer, body: Record<string, unknown>) =>
  postJson(server, '/v1/audio/speech', { model: 'kokoro', voice: 'af_heart', ...body });

/** The audio of a speech request that must succeed (200). */
export async function speechBytes(server: RunningServer, body: Record<string, unknown>): Promise<Buffer> {
  const res = await postSpeech(server, body);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The suite's fixture server: started before its tests (options read then), closed after them. */
export function suiteServer(options: () => FixtureServerOptions = () => ({})): FixtureServer {
  let fixture: FixtureServer | undefined;
  beforeAll(async () => {
    fixture = await startFixtureServer(options());
  });
  afterAll(() => fixture?.close());
  const started = () => {
    if (!fixture) throw new Error('the suite server is not started yet (use it inside a test)');
    return fixture;
  };
  return {
    get server() {
      return started().server;
    },
    get engine() {
      return started().engine;
    },
    get clients() {
      return started().clients;
    },
    connect: () => started().connect(),
    close: () => started().close(),
  };
}

/** Admission on, every model run 600 ms long: a sentence's first audio cannot be ready within
 *  ADMISSION_FIRST_AUDIO_MS (400 ms), so an admitted session at work makes newcomers late. */
export const lateAdmission = {
  wrapEngine: (loaded: Engine) => withSimulatedDelay(loaded, 600, 0),
  config: { admission: 'on', admissionMaxUtilization: 1, admissionPriorSpeakingShare: 0, prepWorkers: 1 },
} satisfies FixtureServerOptions;
