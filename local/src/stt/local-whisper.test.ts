import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@jest/globals';
import { buildManifest, defaultModelDir, serializeManifest } from '@kokoro-speech/weights';
import {
  createLocalWhisperSpeechToText,
  WHISPER_ONNX_FILES,
  WHISPER_ONNX_REPO,
  WHISPER_ONNX_REVISION,
} from './local-whisper.ts';

/** A loopback port nothing listens on: the Hub, unreachable. */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('the local model, when the Hub cannot be reached: a refusal that names every way out', async () => {
  const port = await deadPort();
  const cache = await mkdtemp(join(tmpdir(), 'stt-cache-'));
  try {
    const made = createLocalWhisperSpeechToText({
      env: { HF_ENDPOINT: `http://127.0.0.1:${port}`, XDG_CACHE_HOME: cache },
      attempts: 1,
    });
    await expect(made).rejects.toMatchObject({ code: 'stt_unavailable' });
    await expect(made).rejects.toThrow(/onnx-community\/whisper-base[\s\S]*--offline[\s\S]*STT_LOCAL_MODEL_DIR/);
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
});

test('once downloaded, the commit its manifest names is used again without the network', async () => {
  const port = await deadPort();
  const cache = await mkdtemp(join(tmpdir(), 'stt-cache-'));
  try {
    const env = { HF_ENDPOINT: `http://127.0.0.1:${port}`, XDG_CACHE_HOME: cache };
    const dir = defaultModelDir(WHISPER_ONNX_REPO, WHISPER_ONNX_REVISION, env);
    // What a first download leaves: every file, and a manifest naming the commit it resolved to
    // (here placeholders: no real weights, so loading them fails after the cache was accepted).
    for (const path of WHISPER_ONNX_FILES) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), 'x');
    }
    const files = WHISPER_ONNX_FILES.map((path) => ({ path, size: 1, sha256: '0'.repeat(64) }));
    const commit = 'a'.repeat(40);
    await writeFile(join(dir, 'manifest.json'), serializeManifest(buildManifest(WHISPER_ONNX_REPO, commit, files)));
    const made = createLocalWhisperSpeechToText({ env, attempts: 1 });
    await expect(made).rejects.toMatchObject({ code: 'stt_unavailable' });
    await expect(made).rejects.toThrow(/could not be loaded/); // past the download: no Hub was asked
  } finally {
    await rm(cache, { recursive: true, force: true });
  }
});
