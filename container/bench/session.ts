// One simulated voice-agent session for the load benchmark: it speaks a few answers (turns), each
// a handful of sentences sent as an LLM would produce them (a sentence as soon as its last
// character has streamed in, without waiting for earlier audio), "plays" the audio on a
// real-time clock, and records first-audio latency and underruns (audio arriving after what was
// already received has finished playing). A session the server refuses at connect (HTTP 503,
// admission control) records how long the refusal took and speaks nothing (no retry here).
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { serverMessageSchema } from '@kokoro-speech/protocol';

export interface SessionPlan {
  startDelayMs: number;
  /** Sentences of each turn. */
  turns: string[][];
  /** Pause after a turn's audio has played (the user speaking). */
  thinkMs: number;
  /** LLM output pace: a sentence is sent this many ms per character after the previous one. */
  llmMsPerChar: number;
}

export interface SessionResult {
  firstAudioMs: number[];
  underruns: number;
  underrunMs: number;
  utterances: number;
  audioMs: number;
  errors: string[];
  /** Refused at connect: ms from the connect to the refusal. */
  refusedMs?: number;
}

const BYTES_PER_MS = (24000 * 2) / 1000; // the session's default: pcm_s16le at 24 kHz

export async function runSession(url: string, plan: SessionPlan): Promise<SessionResult> {
  const result: SessionResult = {
    firstAudioMs: [],
    underruns: 0,
    underrunMs: 0,
    utterances: 0,
    audioMs: 0,
    errors: [],
  };
  await sleep(plan.startDelayMs);
  const connectAt = performance.now();
  const ws = new WebSocket(url);
  let onJson: (type: string, id: string | undefined) => void = () => {};
  let onAudio: (bytes: number) => void = () => {};
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) return onAudio(data.length);
    const m = serverMessageSchema.parse(JSON.parse(data.toString('utf8')));
    if (m.type === 'error') result.errors.push(`${m.code}: ${m.message}`);
    onJson(m.type, 'id' in m && typeof m.id === 'string' ? m.id : undefined);
  });
  const refused = await new Promise<boolean>((resolve, reject) => {
    onJson = (type) => type === 'ready' && resolve(false);
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      if (res.statusCode !== 503) return reject(new Error(`upgrade answered ${res.statusCode}`));
      result.refusedMs = performance.now() - connectAt;
      resolve(true);
    });
    ws.once('error', reject);
  });
  if (refused) {
    ws.terminate();
    return result;
  }

  for (const [t, sentences] of plan.turns.entries()) {
    const lastId = `t${t}s${sentences.length - 1}`;
    const sent = performance.now();
    let playoutEnd = 0;
    let first = true;
    let counted = new Set<string>();
    let current = '';
    const done = new Promise<void>((resolve) => {
      onJson = (type, id) => {
        if (type === 'audio_start' && id) current = id;
        if (type === 'audio_end') result.utterances++;
        if ((type === 'audio_end' && id === lastId) || type === 'error') resolve();
      };
    });
    onAudio = (bytes) => {
      const now = performance.now();
      const ms = bytes / BYTES_PER_MS;
      result.audioMs += ms;
      if (first) {
        first = false;
        result.firstAudioMs.push(now - sent);
      } else if (now > playoutEnd && !counted.has(current)) {
        counted.add(current);
        result.underruns++;
        result.underrunMs += now - playoutEnd;
      }
      playoutEnd = Math.max(playoutEnd, now) + ms;
    };
    for (const [i, text] of sentences.entries()) {
      if (i > 0) await sleep(text.length * plan.llmMsPerChar);
      ws.send(JSON.stringify({ type: 'text', text, id: `t${t}s${i}` }));
    }
    await done;
    counted = new Set();
    await sleep(Math.max(0, playoutEnd - performance.now()) + plan.thinkMs);
  }
  ws.close();
  return result;
}
