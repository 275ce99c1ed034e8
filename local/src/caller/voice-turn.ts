// The customer speaking to the agent over the turn WebSocket (docs/contracts/turn.md, "Voice
// sessions"): `listen`, the audio as 20 ms binary frames (paced in real time like a microphone,
// or with `fast` as far ahead of real time as the agent takes: VOICE_MAX_AHEAD_MS), then silence
// as a microphone would send until the agent ends the customer's turn, then `listen_end`. Ends once
// the agent's `listen_end` is in and the answers it started are done.
import WebSocket from 'ws';
import { WsTurnFramer } from '@kokoro-speech/protocol/ws-framing';
import type { TurnRequest } from '@kokoro-speech/protocol';
import type { AgentCoreTarget } from '../agentcore/agentcore.ts';
import { closeAgentSocket, openAgentSocket } from './agent-socket.ts';
import { parseEvent, type ClientEvent } from './turn-client.ts';
import { VOICE_RATE } from './wav-input.ts';

const FRAME_SAMPLES = (VOICE_RATE * 20) / 1000;
/** With `fast`, how far ahead of real time the audio goes (half the agent's default bound, 10 s). */
const FAST_AHEAD_MS = 5000;

export interface VoiceTurnOptions {
  target: URL | AgentCoreTarget;
  /** The turn request's settings, less the prompt (the customer's words are the prompt). */
  settings: Omit<TurnRequest, 'prompt' | 'mode'>;
  /** 16 kHz mono s16le. */
  pcm: Int16Array;
  fast?: boolean;
  /** Silence sent after the audio while waiting for the end of the turn (default 3 s). */
  trailingSilenceMs?: number;
  sessionId?: string;
  signal?: AbortSignal;
}

/** Speaks `pcm` as the customer; `emit` gets every event (audio decoded), with arrival times. */
export async function speakTurn(options: VoiceTurnOptions, emit: (event: ClientEvent) => void): Promise<void> {
  const ws = await openAgentSocket(options.target, options.sessionId);
  const t0 = performance.now();
  const framer = new WsTurnFramer();
  const silence = Buffer.alloc(FRAME_SAMPLES * 2);
  let ended = false; // the customer's turn is over (or the session refused)
  let listenEnd: number | null = null;
  let dones = 0;
  let listening = false;

  async function speak(): Promise<void> {
    const { pcm } = options;
    const frames = Math.ceil(pcm.length / FRAME_SAMPLES) + (options.trailingSilenceMs ?? 3000) / 20;
    const started = performance.now();
    for (let i = 0; i < frames && !ended && ws.readyState === WebSocket.OPEN; i++) {
      const ahead = i * 20 - (performance.now() - started);
      const lead = options.fast ? FAST_AHEAD_MS : 0;
      if (ahead > lead) await new Promise((resolve) => setTimeout(resolve, ahead - lead));
      const part = pcm.subarray(i * FRAME_SAMPLES, (i + 1) * FRAME_SAMPLES);
      ws.send(part.length > 0 ? Buffer.from(part.buffer, part.byteOffset, part.byteLength) : silence, { binary: true });
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'listen_end' }));
  }

  const abort = (): void => void ws.terminate();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const finish = () => {
        if (listenEnd !== null && dones >= listenEnd) resolve();
      };
      ws.on('open', () =>
        ws.send(
          JSON.stringify({
            ...options.settings,
            type: 'listen',
            input: { format: 'pcm_s16le', sample_rate: VOICE_RATE },
          }),
        ),
      );
      ws.on('error', reject);
      ws.on('close', (code, reason) => {
        if (options.signal?.aborted) reject(options.signal.reason);
        else reject(new Error(`agent WebSocket closed before the voice session ended (${code} ${reason.toString()})`));
      });
      ws.on('message', (data, isBinary) => {
        const at = performance.now() - t0;
        try {
          if (isBinary) {
            const place = framer.audio();
            if (!place) throw new Error('audio frame arrived outside any sentence');
            emit({ type: 'audio', id: place.id, data: new Uint8Array(data as Buffer), at });
            return;
          }
          const raw = JSON.parse((data as Buffer).toString('utf8')) as { type?: unknown };
          const event = framer.event(parseEvent(String(raw.type), raw));
          emit({ ...(event.type === 'audio' ? { ...event, data: Buffer.from(event.data, 'base64') } : event), at });
          if (event.type === 'listening') {
            listening = true;
            void speak().catch(reject);
          }
          if (event.type === 'transcript' && event.final) ended = true;
          if (event.type === 'done') dones++;
          if (event.type === 'listen_end') listenEnd = event.turns;
          // An error before `listening`: the listen was refused, nothing more comes.
          if (event.type === 'error' && !listening) {
            ended = true;
            listenEnd = 0;
          }
          finish();
        } catch (err) {
          reject(err);
        }
      });
    });
  } finally {
    closeAgentSocket(ws, options.signal, abort);
  }
}
