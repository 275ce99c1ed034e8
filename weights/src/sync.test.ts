import { afterAll, afterEach, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partialPath } from './fs-sink.ts';
import { HubClient } from './hub.ts';
import { checkLocalCopies, defaultModelDir, syncToDirectory, type SyncProgress } from './sync.ts';
import { startHubStandIn, type HubStandIn } from './testing/index.ts';

const REPO = 'acme/tiny-tts';
const model = Buffer.alloc(300_000, 7);
const quantized = Buffer.alloc(100_000, 9);
const files = {
  'config.json': '{"model_type":"style_text_to_speech_2"}',
  'tokenizer.json': '{}',
  'onnx/model.onnx': model,
  'onnx/model_quantized.onnx': quantized,
  'voices/af.bin': 'v',
};
const q8 = ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx'];
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

let hub: HubStandIn;
let client: HubClient;
let commit: string;
let dir: string;

beforeAll(async () => {
  hub = await startHubStandIn();
  client = new HubClient({ endpoint: hub.url, retry: { baseDelayMs: 1 } });
  commit = hub.addCommit(REPO, files);
});
afterAll(() => hub.close());
afterEach(async () => {
  jest.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});
const freshDir = async () => (dir = await mkdtemp(join(tmpdir(), 'weights-sync-')));

describe('syncToDirectory (filesystem sink)', () => {
  test('downloads the selected files, verifies them, reports progress and writes the manifest last', async () => {
    await freshDir();
    const progress: SyncProgress[] = [];
    const manifest = await syncToDirectory({
      repo: REPO,
      revision: 'main',
      include: q8,
      dir,
      hub: client,
      onProgress: (p) => progress.push(p),
    });

    expect(manifest).toMatchObject({ repo: REPO, commit });
    expect(manifest.files.map((f) => f.path)).toEqual(['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json']);
    expect(manifest.files.find((f) => f.path === 'onnx/model_quantized.onnx')).toEqual({
      path: 'onnx/model_quantized.onnx',
      size: 100_000,
      sha256: sha256(quantized),
    });
    expect((await readFile(join(dir, 'onnx/model_quantized.onnx'))).equals(quantized)).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest);
    expect(await readdir(join(dir, 'onnx'))).toEqual(['model_quantized.onnx']); // no model.onnx, no partial files

    const total = 100_000 + Buffer.byteLength(files['config.json']) + 2;
    expect(progress.every((p) => p.totalBytes === total && p.bytes <= total)).toBe(true);
    expect(progress.map((p) => p.bytes)).toEqual([...progress.map((p) => p.bytes)].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ bytes: total, filesDone: 3, filesTotal: 3 });
  });

  test('a pinned commit already in the folder is served from its manifest without the network', async () => {
    await freshDir();
    const first = await syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client });
    const before = hub.requests.length;
    const second = await syncToDirectory({
      repo: REPO,
      revision: commit,
      include: q8,
      dir,
      hub: new HubClient({ endpoint: 'http://127.0.0.1:9' }),
    });
    expect(second).toEqual(first);
    expect(hub.requests.length).toBe(before);
  });

  test('files copied in by hand (no manifest) are checked against the pinned digests and used without the network', async () => {
    await freshDir();
    const pinned = Object.fromEntries(
      q8.map((path) => {
        const data = files[path as keyof typeof files];
        return [path, { size: Buffer.byteLength(data), sha256: sha256(data) }];
      }),
    );
    await mkdir(join(dir, 'onnx'));
    for (const path of q8) await writeFile(join(dir, path), files[path as keyof typeof files]);
    const before = hub.requests.length;
    const offline = new HubClient({ endpoint: 'http://127.0.0.1:9', retry: { attempts: 1 } });
    const manifest = await syncToDirectory({
      repo: REPO,
      revision: commit,
      include: q8,
      dir,
      hub: offline,
      expected: pinned,
    });
    expect(hub.requests.length).toBe(before);
    expect(manifest).toMatchObject({ repo: REPO, commit });
    expect(manifest.files.map((f) => f.path).sort()).toEqual([...q8].sort());
    expect(manifest.files.find((f) => f.path === 'onnx/model_quantized.onnx')?.sha256).toBe(sha256(quantized));
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))).toEqual(manifest);

    // A copy that is not the pinned file is not taken: the sync goes to the Hub, which replaces it.
    await rm(join(dir, 'manifest.json'));
    await writeFile(join(dir, 'onnx/model_quantized.onnx'), Buffer.alloc(100_000, 1));
    await expect(checkLocalCopies(dir, q8, pinned)).resolves.toMatchObject({
      missing: [],
      mismatched: ['onnx/model_quantized.onnx'],
    });
    await expect(
      syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: offline, expected: pinned }),
    ).rejects.toThrow();
    await syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client, expected: pinned });
    expect(sha256(await readFile(join(dir, 'onnx/model_quantized.onnx')))).toBe(sha256(quantized));
  });

  test('checkLocalCopies names what is missing, and needs exact pinned paths', async () => {
    await freshDir();
    const pinned = {
      'config.json': { size: 2, sha256: sha256('{}') },
      'tokenizer.json': { size: 2, sha256: sha256('{}') },
    };
    await writeFile(join(dir, 'config.json'), '{}');
    await expect(checkLocalCopies(dir, ['config.json', 'tokenizer.json'], pinned)).resolves.toEqual({
      verified: [{ path: 'config.json', size: 2, sha256: sha256('{}') }],
      missing: ['tokenizer.json'],
      mismatched: [],
    });
    await expect(checkLocalCopies(dir, ['*.json'], pinned)).resolves.toBeNull();
    await expect(checkLocalCopies(dir, ['config.json', 'onnx/model.onnx'], pinned)).resolves.toBeNull();
    await expect(checkLocalCopies(dir, ['config.json'], undefined)).resolves.toBeNull();
  });

  test('a branch is resolved again, but verified files are not downloaded again', async () => {
    await freshDir();
    await syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client });
    const downloads = hub.downloads('model_quantized.onnx');
    await syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client });
    expect(hub.downloads('model_quantized.onnx')).toBe(downloads);
  });

  test('a damaged local file is replaced', async () => {
    await freshDir();
    await syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client });
    await writeFile(join(dir, 'onnx/model_quantized.onnx'), Buffer.alloc(100_000, 1));
    await rm(join(dir, 'manifest.json'));
    await syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client });
    expect(sha256(await readFile(join(dir, 'onnx/model_quantized.onnx')))).toBe(sha256(quantized));
  });

  test('a second dtype in the same folder keeps the first in the manifest', async () => {
    await freshDir();
    await syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client });
    const both = await syncToDirectory({
      repo: REPO,
      revision: commit,
      include: ['config.json', 'tokenizer.json', 'onnx/model.onnx'],
      dir,
      hub: client,
    });
    expect(both.files.map((f) => f.path)).toEqual([
      'config.json',
      'onnx/model.onnx',
      'onnx/model_quantized.onnx',
      'tokenizer.json',
    ]);
  });

  test('a corrupted download fails with DigestMismatch, leaving neither the file nor a manifest', async () => {
    await freshDir();
    hub.inject('onnx/model_quantized.onnx', { kind: 'corrupt' });
    await expect(
      syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client }),
    ).rejects.toMatchObject({ name: 'DigestMismatch' });
    expect(await readdir(join(dir, 'onnx'))).toEqual([]);
    await expect(readFile(join(dir, 'manifest.json'))).rejects.toThrow(/ENOENT/);
  });

  test('a truncated download is retried', async () => {
    await freshDir();
    hub.inject('onnx/model_quantized.onnx', { kind: 'truncate', bytes: 1000 });
    const downloads = hub.downloads('model_quantized.onnx');
    const manifest = await syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client });
    expect(manifest.files).toHaveLength(3);
    expect(hub.downloads('model_quantized.onnx') - downloads).toBe(2);
  });

  test('a download that keeps breaking fails with DownloadInterrupted', async () => {
    await freshDir();
    hub.inject('onnx/model_quantized.onnx', { kind: 'truncate', bytes: 1000 }, 3);
    await expect(
      syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client }),
    ).rejects.toMatchObject({
      name: 'DownloadInterrupted',
      message: expect.stringContaining('after 1000 of 100000 bytes'),
    });
  });

  test('pinned expectations that the listing contradicts fail with IntegrityError before downloading', async () => {
    await freshDir();
    const expected = { 'onnx/model_quantized.onnx': { size: 100_000, sha256: 'f'.repeat(64) } };
    await expect(
      syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client, expected }),
    ).rejects.toMatchObject({ name: 'IntegrityError' });
    await expect(readdir(join(dir, 'onnx'))).rejects.toThrow(/ENOENT/);
  });

  test('an aborted sync stops with AbortError', async () => {
    await freshDir();
    const controller = new AbortController();
    controller.abort();
    await expect(
      syncToDirectory({ repo: REPO, revision: 'main', include: q8, dir, hub: client, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('two syncs into one folder at once both succeed (unique temporary names)', async () => {
    await freshDir();
    // One millisecond for both: the manifest's temporary name once came from pid + Date.now().
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const [a, b] = await Promise.all([
      syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client }),
      syncToDirectory({ repo: REPO, revision: commit, include: q8, dir, hub: client }),
    ]);
    expect(a.files).toEqual(b.files);
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'manifest.json', 'onnx', 'tokenizer.json']);
  });

  test('temporary names differ on every call, in the same millisecond and process', () => {
    jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const names = new Set(Array.from({ length: 1000 }, () => partialPath('/m/manifest.json')));
    expect(names.size).toBe(1000);
    for (const name of names) expect(name).toMatch(/^\/m\/manifest\.json\.partial-[0-9a-f-]{36}$/);
  });

  test('defaultModelDir follows XDG_CACHE_HOME', () => {
    expect(defaultModelDir(REPO, commit, { XDG_CACHE_HOME: '/c' })).toBe(`/c/kokoro-speech/models/${REPO}/${commit}`);
  });
});
