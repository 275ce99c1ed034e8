// What the Talk test and the barge-in benchmark run: a WAV of a customer speaking, made at run time
// with espeak-ng and sox (Debian's), that Chromium's fake microphone plays into the page; and the
// stack on loopback: the Kokoro container on the stand-in model, an agent with speech in (the
// `openai` STT provider pointed at the runtime's loopback transcription stand-in, scripted with
// what the customer says; Silero VAD; the echo LLM), and the web server in front of it, as
// `npm start -- --agent URL` runs it (with --auth: the sign-in and AgentCore stand-in as well).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@kokoro-speech/container';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { createLlmProvider, startAgentServer, WebSocketTransport } from '@kokoro-speech/runtime';
import { createSpeechToText, SileroVad } from '@kokoro-speech/runtime/stt';
import { startFakeTranscriptionServer } from '@kokoro-speech/runtime/testing';
import { parseLocalOptions } from '../stack/options.ts';
import { startLocalStack, type LocalStack } from '../stack/stack.ts';

export const ESPEAK = '/usr/bin/espeak-ng';
export const SOX = '/usr/bin/sox';

/** A WAV for Chromium's fake microphone: 16 kHz mono 16-bit PCM. */
export interface SpokenWav {
  path: string;
  /** Where each utterance starts and ends in the file, in ms. */
  utterances: { text: string; startMs: number; endMs: number }[];
}

const seconds = (file: string) => Number(execFileSync(SOX, ['--i', '-D', file], { encoding: 'utf8' }).trim());

/**
 * Speaks each utterance with espeak-ng, after the pause before it (seconds of silence), then
 * `tailS` of silence, into one 16 kHz mono s16 WAV in `dir`.
 */
export function spokenWav(dir: string, parts: { pauseS: number; text: string }[], tailS: number): SpokenWav {
  const pieces: string[] = [];
  const utterances: SpokenWav['utterances'] = [];
  let at = 0;
  parts.forEach(({ pauseS, text }, i) => {
    const raw = join(dir, `utterance-${i}.raw.wav`);
    const padded = join(dir, `utterance-${i}.wav`);
    execFileSync(ESPEAK, ['-v', 'en-us', '-s', '165', '-w', raw, text]);
    // espeak-ng writes 22,050 Hz; trim its own leading silence so that the onset is where we say.
    execFileSync(SOX, [
      raw,
      '-r',
      '16000',
      '-c',
      '1',
      '-b',
      '16',
      padded,
      'silence',
      '1',
      '0.01',
      '0.5%',
      'pad',
      String(pauseS),
      '0',
    ]);
    const total = seconds(padded);
    utterances.push({ text, startMs: (at + pauseS) * 1000, endMs: (at + total) * 1000 });
    at += total;
    pieces.push(padded);
  });
  const path = join(dir, 'customer.wav');
  execFileSync(SOX, [...pieces, path, 'pad', '0', String(tailS)]);
  return { path, utterances };
}

export interface TalkStack {
  stack: LocalStack;
  /** The transcription stand-in's requests (one per utterance the agent's VAD cut). */
  transcriptions: () => number;
  close(): Promise<void>;
}

/** The stack with speech in; `heard`: what the transcription stand-in answers, request by request (the last repeats). */
export async function startTalkStack(heard: string[], extraArgs: string[] = []): Promise<TalkStack> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => {});
  };
  try {
    const dir = await mkdtemp(join(tmpdir(), 'kokoro-talk-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    await writeFixtureModel(dir);
    const container = await startServer({ modelDir: dir, config: { dtype: 'fp32' }, host: '127.0.0.1', port: 0 });
    closers.push(() => container.close());
    const fake = await startFakeTranscriptionServer(heard.map((text) => ({ text })));
    closers.push(() => fake.close());
    const stt = await createSpeechToText({ provider: 'openai', baseURL: fake.baseURL, model: 'whisper-1' });
    const { llm } = parseLocalOptions(['--llm', 'echo'], { ECHO_FIRST_TOKEN_MS: '20', ECHO_TOKENS_PER_SECOND: '400' });
    const agent = await startAgentServer({
      llm: createLlmProvider(llm),
      tts: new WebSocketTransport({ url: container.wsUrl }),
      host: '127.0.0.1',
      port: 0,
      voice: { stt, createVad: () => SileroVad.load() },
    });
    closers.push(() => agent.close());
    const stack = await startLocalStack(parseLocalOptions(['--agent', agent.url, '--port', '0', ...extraArgs], {}));
    closers.push(() => stack.close());
    return { stack, transcriptions: () => fake.requests.length, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Chromium's switches that make `wav` its microphone, played once, with the permission granted. */
export const fakeMicrophone = (wav: string): string[] => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${wav}%noloop`,
];
