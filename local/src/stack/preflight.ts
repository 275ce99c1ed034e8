// Start-up checks of `npm start` that fail early with the fix in the message (a StartupError, exit
// status 2) instead of failing every turn later: the page's port is free, AWS credentials resolve
// when AWS was asked for, the AWS region and where it came from, and the voice is one the model has.
import net from 'node:net';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { loadSharedConfigFiles, type SharedConfigFiles } from '@smithy/core/config';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import WebSocket from 'ws';
import { voiceProblem } from '@kokoro-speech/protocol';
import { StartupError } from './startup-error.ts';

/** Fails when `host:port` cannot be listened on (in use, or not an address here); port 0 always works. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, host, port);
  });
}

/** The StartupError for a failed listen on the page's address, or the error itself if it is another. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE')
    return new StartupError(
      `port ${port} on ${host} is already in use (another npm start?). Stop that one, or pick another port:\n` +
        `  npm start -- --port ${port === 65535 ? port - 1 : port + 1}     or --port 0 for any free port`,
    );
  if (error.code === 'EACCES')
    return new StartupError(`port ${port} needs privileges on this machine: pick one above 1023, or --port 0`);
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new StartupError(`--host ${host} is not an address of this machine (try 127.0.0.1, or 0.0.0.0 for all)`);
  return error;
}

export interface AwsRegion {
  region: string;
  /** Where it came from, for the banner: "AWS_REGION", "profile dev", "Strands' default"... */
  source: string;
}

/** Strands' BedrockModel goes here when no region is configured. */
export const STRANDS_DEFAULT_REGION = 'us-west-2';

/**
 * The region the Bedrock model will call: AWS_REGION, then AWS_DEFAULT_REGION (as the agent reads
 * them), then the profile's `region` in ~/.aws/config (as the AWS SDK does), else Strands' default.
 */
export async function resolveAwsRegion(env: NodeJS.ProcessEnv = process.env): Promise<AwsRegion> {
  if (env['AWS_REGION']) return { region: env['AWS_REGION'], source: 'AWS_REGION' };
  if (env['AWS_DEFAULT_REGION']) return { region: env['AWS_DEFAULT_REGION'], source: 'AWS_DEFAULT_REGION' };
  const profile = env['AWS_PROFILE'] || 'default';
  const files = await loadSharedConfigFiles({
    ...(env['AWS_CONFIG_FILE'] ? { configFilepath: env['AWS_CONFIG_FILE'] } : {}),
    ...(env['AWS_SHARED_CREDENTIALS_FILE'] ? { filepath: env['AWS_SHARED_CREDENTIALS_FILE'] } : {}),
  }).catch((): SharedConfigFiles => ({ configFile: {}, credentialsFile: {} }));
  const fromProfile = files.configFile[profile]?.['region'] ?? files.credentialsFile[profile]?.['region'];
  if (fromProfile) return { region: fromProfile, source: `profile ${profile}` };
  return { region: STRANDS_DEFAULT_REGION, source: "Strands' default: set AWS_REGION to choose" };
}

/**
 * Resolves AWS credentials now, so that a missing set-up stops start-up with the ways to fix it.
 * `given` names what asked for AWS as the user wrote it ("--llm bedrock", "--target ARN"...).
 */
export async function requireAwsCredentials(
  given: string,
  withoutAws: string,
  provider: AwsCredentialIdentityProvider = defaultProvider(),
): Promise<void> {
  try {
    await provider();
  } catch (error) {
    throw new StartupError(
      [
        `${given} needs AWS credentials, and none resolve (${(error as Error).message}).`,
        'Set them up in one of the usual ways, then run it again:',
        '  aws configure                    access keys for the default profile (~/.aws/credentials)',
        '  aws sso login --profile NAME     IAM Identity Center, then run with AWS_PROFILE=NAME',
        '  AWS_PROFILE=NAME                 any profile of ~/.aws/config',
        '  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) in the environment',
        withoutAws,
      ].join('\n'),
      { cause: error },
    );
  }
}

/** The voices a Kokoro server offers: its protocol-v1 `ready` message on the bidirectional stream. */
export async function readVoices(wsUrl: string, timeoutMs = 10_000): Promise<string[]> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready message from ${wsUrl}`)), timeoutMs);
      ws.once('error', reject);
      ws.once('message', (data) => {
        clearTimeout(timer);
        const ready = JSON.parse(String(data)) as { type?: string; voices?: unknown };
        if (ready.type !== 'ready' || !Array.isArray(ready.voices))
          reject(new Error(`expected a ready message from ${wsUrl}`));
        else resolve(ready.voices.map(String));
      });
    });
  } finally {
    ws.terminate();
  }
}

/** Fails unless `voice` is one of `voices`; the message lists every voice. */
export function checkVoice(voice: string, given: '--voice' | 'KOKORO_VOICE', voices: readonly string[]): void {
  const problem = voiceProblem(voice, voices);
  if (!problem) return; // a voice, or a blend of them
  if (problem.code === 'invalid_voice') throw new StartupError(`${given}: ${problem.message}`);
  const part = problem.voice !== undefined && problem.voice !== voice ? `: ${problem.voice}` : '';
  const suggestion = voices.includes('af_heart') ? 'af_heart' : voices[0];
  throw new StartupError(
    `${given === '--voice' ? `--voice ${voice}` : `KOKORO_VOICE=${voice}`}${part} is not a voice of this model. ` +
      `Its ${voices.length} voices:\n${wrap(voices, '  ')}\n` +
      `e.g. npm start -- --voice ${suggestion} (a voices/<id>.bin in the model folder adds one)`,
  );
}

/** Comma-separated items in lines of about 100 characters. */
function wrap(items: readonly string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line === '' ? item : `${line}, ${item}`;
    if (next.length + indent.length > 100 && line !== '') {
      lines.push(`${indent}${line},`);
      line = item;
    } else line = next;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines.join('\n');
}
