// A caller's microphone for tests and the benchmark: 16 kHz mono s16le PCM as binary WebSocket
// frames of `frameMs` each (20 ms: what a browser's audio worklet batches to), sent at once (the
// agent's audio clock, not the wall clock, drives its turn-taking) or paced in real time.
import type WebSocket from 'ws';

export function pcmFrames(pcm: Int16Array, frameMs = 20): Buffer[] {
  const step = (16_000 * frameMs) / 1000;
  const frames: Buffer[] = [];
  for (let at = 0; at < pcm.length; at += step) {
    const part = pcm.subarray(at, at + step);
    frames.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  }
  return frames;
}

/** Sends `pcm` as microphone frames; `paced`: one frame per frame's duration, as a microphone does. */
export async function sendPcm(ws: WebSocket, pcm: Int16Array, paced = false, frameMs = 20): Promise<void> {
  const started = performance.now();
  let sentMs = 0;
  for (const frame of pcmFrames(pcm, frameMs)) {
    if (paced) {
      const wait = started + sentMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    ws.send(frame, { binary: true });
    sentMs += (frame.length / 2 / 16_000) * 1000;
  }
}
