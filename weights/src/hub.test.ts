import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createHash } from 'node:crypto';
import { HubClient } from './hub.ts';
import { startHubStandIn, type HubStandIn } from './testing/index.ts';

const REPO = 'acme/tiny-tts';
let hub: HubStandIn;
let commit: string;
const fast = { baseDelayMs: 1 };

beforeAll(async () => {
  hub = await startHubStandIn({ token: 'hf_secret' });
  commit = hub.addCommit(REPO, { 'config.json': '{"model_type":"x"}', 'onnx/model.onnx': Buffer.alloc(4096, 3) });
});
afterAll(() => hub.close());

describe('HubClient', () => {
  test('resolves a branch to its commit and lists sizes, LFS digests and blob ids', async () => {
    const client = new HubClient({ endpoint: hub.url, token: 'hf_secret' });
    const resolved = await client.resolveRevision(REPO, 'main');
    expect(resolved.commit).toBe(commit);
    const model = resolved.files.find((f) => f.path === 'onnx/model.onnx');
    expect(model).toMatchObject({
      size: 4096,
      sha256: createHash('sha256').update(Buffer.alloc(4096, 3)).digest('hex'),
    });
    expect(resolved.files.find((f) => f.path === 'config.json')).toMatchObject({ size: 18, sha256: null });
  });

  test('reads the endpoint and token from HF_ENDPOINT and HF_TOKEN by default', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { HF_ENDPOINT: `${hub.url}/`, HF_TOKEN: 'hf_secret' });
    try {
      const client = new HubClient();
      expect(client.endpoint).toBe(hub.url);
      await expect(client.resolveRevision(REPO, commit)).resolves.toMatchObject({ commit });
    } finally {
      process.env = saved;
    }
  });

  test('downloads a file by following the CDN redirect', async () => {
    const client = new HubClient({ endpoint: hub.url, token: 'hf_secret' });
    const body = Buffer.concat(await (await client.download(REPO, commit, 'onnx/model.onnx')).toArray());
    expect(body.equals(Buffer.alloc(4096, 3))).toBe(true);
    expect(hub.requests.some((p) => p.startsWith('/cdn/'))).toBe(true);
    expect(hub.cdnAuthorizations).toEqual([]); // the token is not sent on to another origin
  });

  test('retries 429 (honouring Retry-After) and 5xx', async () => {
    hub.inject(`/revision/main`, { kind: 'status', status: 429, retryAfter: '0' });
    hub.inject(`/revision/main`, { kind: 'status', status: 502 });
    const before = hub.requests.length;
    const client = new HubClient({ endpoint: hub.url, token: 'hf_secret', retry: fast });
    await expect(client.resolveRevision(REPO, 'main')).resolves.toMatchObject({ commit });
    expect(hub.requests.length - before).toBe(3);
  });

  test('gives up on persistent throttling with HubThrottled', async () => {
    hub.inject(`/revision/main`, { kind: 'status', status: 429, retryAfter: '0' }, 2);
    const client = new HubClient({ endpoint: hub.url, token: 'hf_secret', retry: { ...fast, attempts: 2 } });
    await expect(client.resolveRevision(REPO, 'main')).rejects.toMatchObject({
      name: 'HubThrottled',
      status: 429,
      retryable: true,
    });
  });

  test('a missing token or unknown revision fails at once with HubRequestFailed', async () => {
    const before = hub.requests.length;
    await expect(
      new HubClient({ endpoint: hub.url, token: '', retry: fast }).resolveRevision(REPO, 'main'),
    ).rejects.toMatchObject({ name: 'HubRequestFailed', status: 401 });
    await expect(
      new HubClient({ endpoint: hub.url, token: 'hf_secret', retry: fast }).resolveRevision(REPO, 'nope'),
    ).rejects.toMatchObject({ status: 404 });
    expect(hub.requests.length - before).toBe(2);
  });

  test('bad repository ids, revisions and paths are refused before any request', async () => {
    const client = new HubClient({ endpoint: hub.url });
    await expect(client.resolveRevision('no-slash', 'main')).rejects.toThrow(/owner\/name/);
    await expect(client.resolveRevision(REPO, '')).rejects.toThrow(/revision/);
    await expect(client.download(REPO, commit, '../etc/passwd')).rejects.toThrow(/relative/);
    expect(() => new HubClient({ endpoint: 'ftp://x' })).toThrow(/http/);
  });
});
