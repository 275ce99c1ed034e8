// What makes `npm ci` work with npm 10 as well as 11: npm 10 ignores package.json's allowScripts
// and runs onnxruntime-node's install script, so the root .npmrc tells that script to skip its
// CUDA download. Checked here against the script itself and the npm on this machine, with no
// network: the script only reads its setting before it would download anything.
import { describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const INSTALL_SCRIPT = join(ROOT, 'node_modules/onnxruntime-node/script/install.js');
const run = promisify(execFile);

/** Runs onnxruntime-node's install script with only these settings (and PATH) in its environment. */
async function installScript(env: Record<string, string>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [INSTALL_SCRIPT], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      timeout: 20_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe("npm ci: the root package's Node 24 requirement is not an EBADENGINE warning", () => {
  test('devEngines says what npm itself runs on (Node 20 or newer); engines keeps what the code runs on', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: unknown;
      devEngines: unknown;
    };
    expect(manifest.engines).toEqual({ node: '>=24 <25' });
    expect(manifest.devEngines).toEqual({ runtime: { name: 'node', version: '>=20', onFail: 'error' } });
  });

  test("npm skips a root package's engines when it has devEngines, and enforces devEngines", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-engines-'));
    const install = async (manifest: object): Promise<string> => {
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', ...manifest }));
      try {
        const { stdout, stderr } = await run('npm', ['install', '--dry-run', '--no-audit', '--no-fund'], {
          cwd: dir,
        });
        return stdout + stderr;
      } catch (error) {
        return `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
      }
    };
    try {
      const engines = { node: '>=99' };
      expect(await install({ engines })).toContain('EBADENGINE');
      expect(await install({ engines, devEngines: { runtime: { name: 'node', version: '>=20' } } })).not.toContain(
        'EBADENGINE',
      );
      expect(await install({ devEngines: { runtime: { name: 'node', version: '>=99', onFail: 'error' } } })).toContain(
        'EBADDEVENGINES',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('npm ci with npm 10: onnxruntime-node skips its CUDA download', () => {
  test('the root .npmrc sets onnxruntime-node-install-cuda=skip', () => {
    const settings = readFileSync(join(ROOT, '.npmrc'), 'utf8')
      .split('\n')
      .filter((line) => !/^\s*([#;]|$)/.test(line));
    expect(settings).toEqual(['onnxruntime-node-install-cuda=skip']);
  });

  test('npm hands it to scripts as npm_config_onnxruntime_node_install_cuda', async () => {
    const { stdout } = await run('npm', ['exec', '-c', 'echo "[$npm_config_onnxruntime_node_install_cuda]"'], {
      cwd: ROOT,
      env: { ...process.env, npm_config_onnxruntime_node_install_cuda: undefined },
    });
    expect(stdout.trim()).toBe('[skip]');
  });

  test('the install script reads that variable: skip exits at once, another value is parsed', async () => {
    await expect(installScript({ npm_config_onnxruntime_node_install_cuda: 'skip' })).resolves.toEqual({
      code: 0,
      output: '',
    });
    const bogus = await installScript({ npm_config_onnxruntime_node_install_cuda: 'bogus' });
    expect(bogus.code).not.toBe(0);
    expect(bogus.output).toContain('Invalid value for --onnxruntime-node-install-cuda: bogus');
  });

  test("the image build's explicit ONNXRUNTIME_NODE_INSTALL_CUDA wins over the npm setting", async () => {
    // The gpu stage runs the script itself with ONNXRUNTIME_NODE_INSTALL_CUDA=v12; were the .npmrc
    // setting to reach it, the environment variable would still decide (a bogus value shows which won).
    const both = await installScript({
      ONNXRUNTIME_NODE_INSTALL_CUDA: 'bogus-env',
      npm_config_onnxruntime_node_install_cuda: 'skip',
    });
    expect(both.output).toContain('Invalid value for --onnxruntime-node-install-cuda: bogus-env');
    const dockerfile = readFileSync(join(ROOT, 'container/Dockerfile'), 'utf8');
    expect(dockerfile).toContain(
      'RUN ONNXRUNTIME_NODE_INSTALL_CUDA=v12 node node_modules/onnxruntime-node/script/install.js',
    );
    // Nor does it reach it: each image's build context is an allowlist without .npmrc.
    for (const ignore of ['container/Dockerfile.dockerignore', 'runtime/Dockerfile.dockerignore']) {
      const lines = readFileSync(join(ROOT, ignore), 'utf8').split('\n');
      expect(lines).toContain('*');
      expect(lines.filter((l) => l.includes('npmrc'))).toEqual([]);
    }
  });
});
