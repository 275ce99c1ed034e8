// The start-up checks, each against the real thing it checks: a port someone holds, AWS config
// files in a scratch folder, a credential chain that finds nothing, a protocol-v1 server's voices.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeContainer } from '@kokoro-speech/protocol/testing';
import {
  checkPortFree,
  checkVoice,
  readVoices,
  requireAwsCredentials,
  resolveAwsRegion,
  STRANDS_DEFAULT_REGION,
} from './preflight.ts';
import { StartupError } from './startup-error.ts';

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(join(tmpdir(), 'preflight-'))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('checkPortFree', () => {
  test('a port in use is a StartupError suggesting another port and --port 0; a free one passes', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const error = await checkPortFree('127.0.0.1', port).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect((error as Error).message).toContain(`npm start -- --port ${port + 1}`);
      expect((error as Error).message).toContain('--port 0');
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
    await expect(checkPortFree('127.0.0.1', port)).resolves.toBeUndefined();
    await expect(checkPortFree('127.0.0.1', 0)).resolves.toBeUndefined();
  });

  test('a host that is not an address here is named', async () => {
    const elsewhere = '198.51.100.77'; // a documentation address (RFC 5737), not one of this machine's
    const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
    expect(own).not.toContain(elsewhere);
    const error = await checkPortFree(elsewhere, 3000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toContain(`--host ${elsewhere} is not an address of this machine`);
  });
});

describe('resolveAwsRegion', () => {
  const noFiles = () => ({
    AWS_CONFIG_FILE: join(scratch, 'none-config'),
    AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'none-credentials'),
  });

  test('AWS_REGION, then AWS_DEFAULT_REGION (as the agent reads them)', async () => {
    await expect(
      resolveAwsRegion({ ...noFiles(), AWS_REGION: 'eu-west-1', AWS_DEFAULT_REGION: 'ap-south-1' }),
    ).resolves.toEqual({ region: 'eu-west-1', source: 'AWS_REGION' });
    await expect(resolveAwsRegion({ ...noFiles(), AWS_DEFAULT_REGION: 'ap-south-1' })).resolves.toEqual({
      region: 'ap-south-1',
      source: 'AWS_DEFAULT_REGION',
    });
  });

  test("then the profile's region in the AWS config file, else Strands' default, said as such", async () => {
    const config = join(scratch, 'config');
    await writeFile(config, '[default]\nregion = eu-north-1\n[profile dev]\nregion = sa-east-1\n');
    const files = { AWS_CONFIG_FILE: config, AWS_SHARED_CREDENTIALS_FILE: join(scratch, 'none') };
    await expect(resolveAwsRegion(files)).resolves.toEqual({ region: 'eu-north-1', source: 'profile default' });
    await expect(resolveAwsRegion({ ...files, AWS_PROFILE: 'dev' })).resolves.toEqual({
      region: 'sa-east-1',
      source: 'profile dev',
    });
    const fallback = await resolveAwsRegion(noFiles());
    expect(fallback.region).toBe(STRANDS_DEFAULT_REGION);
    expect(fallback.source).toMatch(/Strands' default: set AWS_REGION/);
  });
});

describe('requireAwsCredentials', () => {
  test('no credentials: a StartupError naming what asked for them and every usual fix', async () => {
    const nothing = async () => {
      throw new Error('Could not load credentials from any providers');
    };
    const error = await requireAwsCredentials('--llm bedrock', 'Without AWS: leave --llm out.', nothing).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StartupError);
    const text = (error as Error).message;
    expect(text).toMatch(/^--llm bedrock needs AWS credentials, and none resolve \(Could not load credentials/);
    for (const fix of ['aws configure', 'aws sso login', 'AWS_PROFILE=NAME', 'AWS_ACCESS_KEY_ID', 'Without AWS'])
      expect(text).toContain(fix);
  });

  test('credentials that resolve pass', async () => {
    await expect(
      requireAwsCredentials('--llm bedrock', '', async () => ({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 's' })),
    ).resolves.toBeUndefined();
  });
});

describe('voices', () => {
  test("readVoices takes a protocol-v1 server's ready message", async () => {
    const fake = await startFakeContainer();
    try {
      await expect(readVoices(fake.wsUrl)).resolves.toEqual(['af_heart', 'am_adam']);
    } finally {
      await fake.close();
    }
  });

  test('an unknown voice lists every voice, none cut off, and names the flag or the variable', () => {
    const voices = Array.from({ length: 40 }, (_, i) => `af_voice${String(i).padStart(2, '0')}`).concat('af_heart');
    const error = (() => {
      try {
        checkVoice('zz_bogus', '--voice', voices);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StartupError);
    const text = (error as Error).message;
    expect(text).toMatch(/^--voice zz_bogus is not a voice of this model\. Its 41 voices:/);
    for (const voice of voices) expect(text).toContain(voice);
    expect(text).not.toContain('...');
    expect(text).toContain('npm start -- --voice af_heart');
    expect(() => checkVoice('zz_bogus', 'KOKORO_VOICE', voices)).toThrow(/^KOKORO_VOICE=zz_bogus is not a voice/);
    expect(() => checkVoice('af_heart', '--voice', voices)).not.toThrow();
    expect(() => checkVoice('af_heart(2)+af_voice07', '--voice', voices)).not.toThrow();
    expect(() => checkVoice('af_heart+zz_bogus', '--voice', voices)).toThrow(
      /^--voice af_heart\+zz_bogus: zz_bogus is not a voice of this model/,
    );
    expect(() => checkVoice('af_heart(-2)+af_voice07', 'KOKORO_VOICE', voices)).toThrow(
      'KOKORO_VOICE: voice blend "af_heart(-2)+af_voice07": the weight of af_heart must be a positive number, got -2 at position 10',
    );
  });
});
