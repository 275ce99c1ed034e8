// `npm run say -- --audio FILE.wav --fast` end to end, as a user runs it: `npm start -- --offline`
// in a child process (the local STT's offline stand-in, then `--stt openai` against a loopback
// transcription server scripted with a known text), the echo LLM, and a WAV file made at test time
// from espeak-ng speech at 22.05 kHz stereo. The answer repeats what the agent heard.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  concatPcm,
  resample,
  silence,
  speak,
  startFakeTranscriptionServer,
  type FakeTranscriptionServer,
} from '@kokoro-speech/runtime/testing';
import { parseWav } from '../caller/wav.ts';
import { testWav } from '../testing/test-wav.ts';
import { runNpm, startNpmStart } from '../testing/npm-run.ts';

const ENV = { ...process.env, ECHO_FIRST_TOKEN_MS: '0', LLM_PROVIDER: 'echo', NODE_OPTIONS: '' };
const QUESTION = 'What time does the library open on Sundays?';

interface Stack {
  child: ChildProcess;
  url: URL;
}
const stacks: Stack[] = [];
let fake: FakeTranscriptionServer;
let scratch: string;
let question: string;
let quiet: string;
let speechSeconds: number;

/** `npm start`'s command with `args`, up once it prints its address. */
async function startStack(args: string[], env: NodeJS.ProcessEnv): Promise<Stack> {
  const { child, url } = await startNpmStart([...args, '--port', '0'], env);
  const stack = { child, url };
  stacks.push(stack);
  return stack;
}

const say = (args: string[]) => runNpm(['run', 'say', '--', ...args], ENV);

/** 16 kHz mono speech as a 22.05 kHz stereo file (the right channel a little quieter). */
function stereoFile(pcm: Int16Array): Buffer {
  const at22k = resample(pcm, 16_000, 22_050);
  return testWav(
    { rate: 22_050, channels: 2, bits: 16 },
    Array.from(at22k, (s) => [s / 32768, (0.8 * s) / 32768]),
  );
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'say-audio-'));
  question = join(scratch, 'question.wav');
  quiet = join(scratch, 'quiet.wav');
  const speech = await speak(QUESTION);
  speechSeconds = speech.length / 16_000;
  await writeFile(question, stereoFile(concatPcm(silence(300), speech, silence(300))));
  await writeFile(quiet, stereoFile(silence(1500)));
  fake = await startFakeTranscriptionServer([{ text: QUESTION }]);
}, 60_000);

afterAll(async () => {
  for (const { child } of stacks) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await fake?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe.each([
  ['the local STT (offline stand-in)', [] as string[], {}, /^Offline stand-in heard \d\.\d seconds of speech\.$/],
  [
    'the openai STT (a loopback transcription server)',
    ['--stt', 'openai'],
    { STT_OPENAI_MODEL: 'whisper-1' },
    new RegExp(`^${QUESTION.replace('?', '\\?')}$`),
  ],
])('npm start -- --offline with %s', (_name, sttArgs, sttEnv, heard) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack(['--offline', ...sttArgs], {
      ...ENV,
      ...sttEnv,
      ...(sttArgs.length > 0 ? { STT_OPENAI_BASE_URL: fake.baseURL } : {}),
    });
  }, 60_000);

  test('say --audio question.wav --fast: the heard words in the timeline, an answer that repeats them', async () => {
    const out = join(scratch, `answer-${sttArgs.length}.wav`);
    const result = await say(['--audio', question, '--fast', '--out', out, '--target', stack.url.toString()]);
    expect(result.stderr).not.toMatch(/say:/);
    expect(result.code).toBe(0);
    const line = /^heard {11}(".*")$/m.exec(result.stdout);
    expect(line).not.toBeNull();
    const words = JSON.parse(line![1]!) as string;
    expect(words).toMatch(heard);
    // The offline stand-in names the length it was given: all the speech, sent ahead of real time.
    const seconds = /heard (\d\.\d) seconds/.exec(words)?.[1];
    if (seconds !== undefined) expect(Math.abs(Number(seconds) - speechSeconds)).toBeLessThan(0.6);
    // The openai provider sent the speech to the transcription server as 16 kHz WAV, model named.
    if (sttArgs.length > 0) expect(fake.requests.at(-1)).toMatchObject({ model: 'whisper-1', sampleRate: 16000 });
    // The echo LLM answers with the words heard: the timeline's sentences are those words.
    expect(result.stdout).toContain(JSON.stringify(words));
    const metrics = JSON.parse(/^metrics (\{.*\})$/m.exec(result.stdout)![1]!) as { audio_ms: number };
    const wav = parseWav(await readFile(out));
    expect(wav).toMatchObject({ sampleRate: 24000, channels: 1, bitsPerSample: 16 });
    expect(wav.samples).toBeGreaterThan(0);
    expect(Math.abs(wav.durationMs - metrics.audio_ms)).toBeLessThan(1);
    expect(result.stdout).toContain(`wrote ${out}: ${wav.samples} samples`);
  }, 60_000);

  test('say --audio of silence only: exit 1, no speech heard, no file written', async () => {
    const out = join(scratch, `silent-${sttArgs.length}.wav`);
    const requests = fake.requests.length;
    const result = await say(['--audio', quiet, '--fast', '--out', out, '--target', stack.url.toString()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`say: no speech heard in ${quiet}: the agent found no words in it`);
    expect(existsSync(out)).toBe(false);
    expect(fake.requests.length).toBe(requests); // the VAD cut nothing to transcribe
  }, 60_000);
});
