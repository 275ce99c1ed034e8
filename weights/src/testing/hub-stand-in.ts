// A local Hugging Face Hub stand-in for tests: serves repositories held in memory with real sizes,
// SHA-256 digests and git blob ids, the model-info API, and resolve URLs that redirect LFS files to
// a "CDN" path like the real Hub. Faults (HTTP statuses, truncated or corrupted bodies) are queued
// per file, and every request is logged so tests can count downloads.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string }
  /** Sends the full Content-Length, then closes the connection after `bytes` bytes. */
  | { kind: 'truncate'; bytes: number }
  /** Serves the file with one byte changed. */
  | { kind: 'corrupt' };

interface StoredFile {
  data: Buffer;
  sha256: string;
  blobId: string;
  lfs: boolean;
}

export interface HubStandIn {
  url: string;
  /** Adds a commit of `files` to `repo` and points `branch` (default "main") at it; returns the commit. */
  addCommit(repo: string, files: Record<string, Buffer | string>, branch?: string): string;
  /** Queues a fault for the next `times` (default 1) requests whose path ends with `pathSuffix` (API: the revision). */
  inject(pathSuffix: string, fault: Fault, times?: number): void;
  /** Request paths served so far, in order. */
  readonly requests: string[];
  /** How many times file bodies ending with `pathSuffix` were sent (CDN or direct). */
  downloads(pathSuffix: string): number;
  /** Authorization headers the CDN (a separate origin, like the real one) received: should stay empty. */
  readonly cdnAuthorizations: string[];
  close(): Promise<void>;
}

const sha = (algorithm: string, ...parts: (Buffer | string)[]) =>
  parts.reduce((h, p) => h.update(p), createHash(algorithm)).digest('hex');

export async function startHubStandIn(
  options: { token?: string; isLfs?: (path: string) => boolean } = {},
): Promise<HubStandIn> {
  const isLfs = options.isLfs ?? ((path: string) => /\.(onnx|bin|safetensors)$/.test(path));
  const commits = new Map<string, Map<string, StoredFile>>(); // `${repo}@${commit}` -> files
  const refs = new Map<string, string>(); // `${repo}@${branch}` -> commit
  const faults: { suffix: string; fault: Fault }[] = [];
  const requests: string[] = [];
  const bodies: string[] = [];
  const cdnAuthorizations: string[] = [];

  // Status faults hit the first matching request; body faults wait for the request that sends the bytes.
  const takeFault = (path: string, body: boolean): Fault | undefined => {
    const index = faults.findIndex((f) => path.endsWith(f.suffix) && (f.fault.kind === 'status') !== body);
    return index < 0 ? undefined : faults.splice(index, 1)[0]!.fault;
  };

  const sendFile = (res: ServerResponse, path: string, file: StoredFile) => {
    const fault = takeFault(path, true);
    bodies.push(path);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.data.length });
    if (fault?.kind === 'truncate') {
      res.write(file.data.subarray(0, fault.bytes), () => res.socket?.destroy());
      return;
    }
    const data = fault?.kind === 'corrupt' ? Buffer.from(file.data) : file.data;
    if (fault?.kind === 'corrupt') data.writeUInt8(data.readUInt8(data.length >> 1) ^ 0xff, data.length >> 1);
    res.end(data);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = decodeURIComponent(url.pathname);
    requests.push(path);
    const fault = takeFault(path, false);
    if (fault?.kind === 'status') {
      res
        .writeHead(fault.status, fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter })
        .end(`injected ${fault.status}`);
      return;
    }
    if (path.startsWith('/cdn/') && req.headers.authorization) cdnAuthorizations.push(req.headers.authorization);
    if (
      options.token !== undefined &&
      req.headers.authorization !== `Bearer ${options.token}` &&
      !path.startsWith('/cdn/')
    ) {
      res.writeHead(401).end('{"error":"Invalid credentials"}');
      return;
    }
    let m = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/(.+)$/.exec(path);
    if (m) {
      const [, repo, rev] = m as unknown as [string, string, string];
      const commit = commits.has(`${repo}@${rev}`) ? rev : refs.get(`${repo}@${rev}`);
      const files = commit && commits.get(`${repo}@${commit}`);
      if (!files) return void res.writeHead(404).end(`{"error":"Revision Not Found"}`);
      const siblings = [...files].map(([rfilename, f]) => ({
        rfilename,
        blobId: f.blobId,
        size: f.data.length,
        ...(f.lfs ? { lfs: { sha256: f.sha256, size: f.data.length, pointerSize: 134 } } : {}),
      }));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: repo, sha: commit, siblings }));
      return;
    }
    m = /^\/([^/]+\/[^/]+)\/resolve\/([0-9a-f]{40})\/(.+)$/.exec(path);
    const file = m && commits.get(`${m[1]}@${m[2]}`)?.get(m[3]!);
    if (m && file) {
      res.setHeader('x-repo-commit', m[2]!);
      if (!file.lfs) return sendFile(res, path, file);
      res
        .writeHead(302, {
          location: `${cdnUrl}/cdn/${file.sha256}/${m[3]}?signature=stand-in`,
          'x-linked-etag': `"${file.sha256}"`,
          'x-linked-size': file.data.length,
        })
        .end();
      return;
    }
    m = /^\/cdn\/([0-9a-f]{64})\/(.+)$/.exec(path);
    const blob = m && [...commits.values()].flatMap((files) => [...files.values()]).find((f) => f.sha256 === m![1]);
    if (m && blob) return sendFile(res, path, blob);
    res.writeHead(404).end('{"error":"Entry not found"}');
  };

  // The "CDN" listens on a second port, so a redirect to it leaves the origin as it does on the real Hub.
  const [server, cdn] = [createServer(handle), createServer(handle)] as [Server, Server];
  await Promise.all([server, cdn].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  const { port } = server.address() as AddressInfo;
  const cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cdnAuthorizations,
    addCommit(repo, input, branch = 'main') {
      const files = new Map<string, StoredFile>();
      for (const [path, content] of Object.entries(input)) {
        const data = Buffer.from(content);
        files.set(path, {
          data,
          sha256: sha('sha256', data),
          blobId: sha('sha1', `blob ${data.length}\0`, data),
          lfs: isLfs(path),
        });
      }
      const commit = sha('sha1', repo, ...[...files].flatMap(([p, f]) => [p, f.sha256]), String(commits.size));
      commits.set(`${repo}@${commit}`, files);
      refs.set(`${repo}@${branch}`, commit);
      return commit;
    },
    inject(suffix, fault, times = 1) {
      for (let i = 0; i < times; i++) faults.push({ suffix, fault });
    },
    downloads: (suffix) => bodies.filter((p) => p.endsWith(suffix)).length,
    close: async () => {
      await Promise.all(
        [server, cdn].map(
          (s) =>
            new Promise<void>((resolve, reject) => {
              s.closeAllConnections();
              s.close((error) => (error ? reject(error) : resolve()));
            }),
        ),
      );
    },
  };
}
