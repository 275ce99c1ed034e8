import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { createLocalWhisperSpeechToText } from './local-whisper.ts';

test('the local model, when the Hub cannot be reached: a refusal that names every way out', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
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
