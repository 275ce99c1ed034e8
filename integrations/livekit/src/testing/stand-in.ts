// Test and benchmark support: the real Kokoro container on the stand-in model behind the local
// SageMaker router, the plugin's options for both modes, the container's own audio for a list of
// sentences (the reference the plugin's frames must equal), and a reader for a TTS stream.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initializeLogger, tts } from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { startServer } from '@kokoro-speech/container';
import type { RunningServer, ServerConfig } from '@kokoro-speech/container';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { withSimulatedDelay } from '@kokoro-speech/container/testing';
import { LOCAL_CREDENTIALS, startLocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import type { LocalSageMakerRouter } from '@kokoro-speech/sagemaker/router';
import { WebSocketTransport } from '@kokoro-speech/runtime/tts';
import type { TTSOptions } from '../options.ts';

export const ENDPOINT = 'kokoro';

export interface StandIn {
  container: RunningServer;
  router: LocalSageMakerRouter;
  /** Options of each mode: SageMaker through the router, the container's WebSocket. */
  modes: { sagemaker: TTSOptions; websocket: TTSOptions };
  /** Starts the router again on its port (after router.close()). */
  restartRouter(): Promise<void>;
  close(): Promise<void>;
}

/** LiveKit's logger must exist before any stream (its classes log); silent in tests. */
export function quietLiveKit(): void {
  initializeLogger({ pretty: false, level: 'silent' });
}

export async function startStandIn(
  config: Partial<ServerConfig> = {},
  model: { durations?: boolean; simulatedDelayMs?: number } = {},
): Promise<StandIn> {
  const dir = await mkdtemp(join(tmpdir(), 'kokoro-livekit-'));
  const { simulatedDelayMs: delayMs = 0, ...fixture } = model;
  await writeFixtureModel(dir, fixture);
  const container = await startServer({
    modelDir: dir,
    config: { dtype: 'fp32', ...config },
    ...(delayMs > 0 && { wrapEngine: (engine) => withSimulatedDelay(engine, delayMs, 0) }),
  });
  const route = (port?: number) =>
    startLocalSageMakerRouter({ containerUrl: container.url, endpointName: ENDPOINT, ...(port && { port }) });
  const standIn: StandIn = {
    container,
    router: await route(),
    modes: {
      sagemaker: {},
      websocket: { url: container.wsUrl },
    },
    restartRouter: async () => {
      standIn.router = await route(standIn.router.port);
    },
    close: async () => {
      await standIn.router.close();
      await container.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  standIn.modes.sagemaker = {
    endpointName: ENDPOINT,
    region: 'us-east-1',
    credentials: LOCAL_CREDENTIALS,
    runtimeUrl: standIn.router.url,
  };
  return standIn;
}

/** The container's audio (PCM bytes) for each text, spoken in one session, straight over its WebSocket. */
export async function containerAudio(
  container: RunningServer,
  texts: readonly string[],
  settings: { voice?: string; speed?: number; sample_rate?: 24000 | 16000 | 8000 } = {},
): Promise<Buffer[]> {
  const session = await new WebSocketTransport({ url: container.wsUrl }).open({
    format: 'pcm_s16le',
    sample_rate: 24000,
    ...settings,
  });
  const ids = texts.map((text) => session.speak(text));
  const audio = new Map<string, Buffer[]>(ids.map((id) => [id, []]));
  const ended = session.end();
  for await (const e of session.events()) {
    if (e.type === 'audio') audio.get(e.id)!.push(Buffer.from(e.data));
    if (e.type === 'error') throw new Error(`reference audio: ${e.code}: ${e.message}`);
  }
  await ended;
  session.close();
  return ids.map((id) => Buffer.concat(audio.get(id)!));
}

/** Everything a stream delivers until END_OF_STREAM or its end; `onAudio` sees each as it comes. */
export async function readAll(
  stream: AsyncIterable<tts.SynthesizedAudio | typeof tts.SynthesizeStream.END_OF_STREAM>,
  onAudio: (audio: tts.SynthesizedAudio) => void = () => {},
): Promise<{ audio: tts.SynthesizedAudio[]; endOfStream: boolean }> {
  const audio: tts.SynthesizedAudio[] = [];
  for await (const item of stream) {
    if (item === tts.SynthesizeStream.END_OF_STREAM) return { audio, endOfStream: true };
    audio.push(item);
    onAudio(item);
  }
  return { audio, endOfStream: false };
}

/** The PCM of frames, in order. */
export function framesPcm(frames: readonly AudioFrame[]): Buffer {
  return Buffer.concat(frames.map((f) => Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength)));
}

export const pcm = (audio: readonly tts.SynthesizedAudio[]): Buffer => framesPcm(audio.map((a) => a.frame));

/** Resolves when `check` holds (polled), rejects after `ms`. */
export async function until(check: () => boolean, ms = 10_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolves when the router carries no stream any more (the plugin's session has ended). */
export const routerIdle = (standIn: StandIn): Promise<void> =>
  until(() => standIn.router.instances().every((i) => i.outstanding === 0), 5000, 'the stream to end');
