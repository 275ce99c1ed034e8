// `npm start -- --offline` as a user runs it: the command the root `start` script runs, in a child
// process. It comes up, serves the page, answers turns (here through `npm run say`, which must
// write a WAV as long as the metrics say), and shuts down cleanly on Ctrl-C (SIGINT).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readOggOpus } from '@kokoro-speech/protocol/audio';
import { parseWav } from '../caller/wav.ts';
import { ECHO_ENV, ROOT, runNpm, startNpmStart, startScript } from '../testing/npm-run.ts';

let server: ChildProcess;
let output: () => string;
let url: URL;
let scratch: string;

const run = (args: string[]) => runNpm(args, ECHO_ENV);

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'say-'));
  // The start script's command itself (npm would add a process in between that dies on SIGINT at once).
  expect(await startScript()).toBe('node local/src/stack/main.ts');
  ({ child: server, url, output } = await startNpmStart(['--offline', '--port', '0'], ECHO_ENV));
}, 60_000);

afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
});

describe('npm start -- --offline', () => {
  test('announces the echo model and the stand-in, and serves the page', async () => {
    expect(output()).toMatch(/LLM\s+echo/);
    expect(output()).toMatch(/the echo model is in use/);
    expect(output()).toMatch(/Speech\s+stand-in model: a tone/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('kokoro-speech');
    expect(await (await fetch(new URL('/api/info', url))).json()).toMatchObject({
      llm: { name: 'echo' },
      model: { kind: 'stand-in' },
    });
  });

  for (const transport of ['sse', 'ws'] as const) {
    test(`npm run say (${transport}) writes a valid WAV as long as the metrics event says`, async () => {
      const out = join(scratch, `${transport}.wav`);
      const prompt = 'The first sentence is here. A second one follows! And a third?';
      const result = await run([
        'run',
        'say',
        '--',
        prompt,
        '--out',
        out,
        '--transport',
        transport,
        '--target',
        url.toString(),
      ]);
      expect(result.stderr).not.toMatch(/say:/);
      expect(result.code).toBe(0);
      const metrics = JSON.parse(/^metrics (\{.*\})$/m.exec(result.stdout)![1]!) as {
        audio_ms: number;
        sentences: number;
      };
      const wav = parseWav(await readFile(out));
      expect(wav).toMatchObject({ sampleRate: 24000, channels: 1, bitsPerSample: 16 });
      expect(wav.samples).toBeGreaterThan(0);
      expect(Math.abs(wav.durationMs - metrics.audio_ms)).toBeLessThan(1);
      // The timeline: one row per sentence, with its text.
      expect(metrics.sentences).toBe(3);
      for (const text of ['The first sentence is here.', 'A second one follows!', 'And a third?'])
        expect(result.stdout).toContain(JSON.stringify(text));
      expect(result.stdout).toContain(`wrote ${out}: ${wav.samples} samples`);
    });
  }

  for (const transport of ['sse', 'ws'] as const) {
    test(`npm run say --session (${transport}): a scripted conversation remembers the turn before`, async () => {
      const say = (session: string, prompt: string) =>
        run([
          'run',
          'say',
          '--',
          prompt,
          '--session',
          session,
          '--transport',
          transport,
          '--target',
          url.toString(),
          '--out',
          join(scratch, `s-${transport}.wav`),
        ]);
      const first = await say('new', 'My name is Ada.');
      expect(first.code).toBe(0);
      const session = /^session ([A-Za-z0-9_-]{33,256})$/m.exec(first.stdout)?.[1];
      expect(session).toBeDefined();
      const second = await say(session!, 'What did I say before?');
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(JSON.stringify('You said: My name is Ada.'));
      expect(second.stdout).toContain(`session ${session}`);
    });
  }

  test('npm run say writes Ogg Opus with WebVTT captions, an Opus turn decoded to WAV, and lists the voices', async () => {
    const prompt = 'The first sentence is here. A second one follows! And a third?';
    const say = (...args: string[]) =>
      run(['run', 'say', '--', prompt, '--transport', 'ws', '--target', url.toString(), ...args]);
    const ogg = join(scratch, 'answer.ogg');
    const opusRun = await say('--out', ogg, '--captions');
    expect(opusRun.stderr).not.toMatch(/say:/);
    expect(opusRun.code).toBe(0);
    const file = readOggOpus(await readFile(ogg));
    expect(file).toMatchObject({ channels: 1, inputRate: 24000, preSkip: 312 });
    const samples = Number(/wrote .*answer\.ogg: (\d+) samples/.exec(opusRun.stdout)![1]);
    expect(file.lastGranule).toBe(BigInt(samples * 2 + 312));
    expect(opusRun.stdout).toMatch(/Opus from the agent: \d+ bytes, \d+ B\/s/);
    const vtt = await readFile(join(scratch, 'answer.vtt'), 'utf8');
    expect(vtt.startsWith('WEBVTT\n\n1\n00:00:00.')).toBe(true);
    expect(vtt.match(/ --> /g)).toHaveLength(3);
    expect(vtt).toMatch(/The <\d\d:\d\d:\d\d\.\d{3}>first <\d\d:\d\d:\d\d\.\d{3}>sentence/);
    expect(opusRun.stdout).toContain('answer.vtt: 3 captions');

    // An Opus turn decoded here to WAV has exactly the samples the metrics say.
    const wavOut = join(scratch, 'opus.wav');
    const decodedRun = await say('--out', wavOut, '--format', 'opus');
    expect(decodedRun.code).toBe(0);
    const metrics = JSON.parse(/^metrics (\{.*\})$/m.exec(decodedRun.stdout)![1]!) as { audio_ms: number };
    const wav = parseWav(await readFile(wavOut));
    expect(Math.abs(wav.durationMs - metrics.audio_ms)).toBeLessThan(1);

    const voices = await run(['run', 'say', '--', '--list-voices', '--target', url.toString()]);
    expect(voices.code).toBe(0);
    expect(voices.stdout).toMatch(/^af_heart\s+Heart\s+en-us\s+Female\s+A\S* \(default\)$/m);
    expect(voices.stdout).toMatch(/^bf_emma\s+Emma\s+en-gb/m);
    expect(voices.stdout).toMatch(/^ef_dora\s+Dora\s+es\s+Female\s/m);
    expect(voices.stdout).toMatch(/^ff_siwis\s+\S+\s+fr-fr\s+Female\s/m);
    expect(voices.stdout).toMatch(/^jf_alpha\s+.* \(not spoken here\)$/m);

    const bad = await say('--out', join(scratch, 'x.ogg'), '--format', 'pcm');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/x\.ogg is an Ogg Opus file: it needs --format opus/);
  }, 60_000);

  test('npm run say --language es speaks Spanish with its default voice; de and ja are refused, named', async () => {
    const prompt = 'La Sra. García está aquí. ¡Sigue una segunda frase! ¿Y una tercera?';
    const say = (...args: string[]) =>
      run(['run', 'say', '--', prompt, '--transport', 'ws', '--target', url.toString(), ...args]);
    // --language: Spanish with its default voice, words as captions
    const es = await say('--out', join(scratch, 'es.wav'), '--language', 'es', '--captions');
    expect(es.stderr).not.toMatch(/say:/);
    expect(es.code).toBe(0);
    expect(parseWav(await readFile(join(scratch, 'es.wav'))).durationMs).toBeGreaterThan(0);
    expect(es.stdout).toContain('es.vtt: 3 captions');
    const german = await say('--language', 'de');
    expect(german.code).toBe(2);
    expect(german.stderr).toMatch(
      /--language must be one of en, es, fr, hi, it, pt \(ja and zh are not spoken here\), not de/,
    );
    const japanese = await say('--out', join(scratch, 'ja.wav'), '--language', 'ja');
    expect(japanese.code).toBe(1);
    expect(japanese.stderr).toMatch(/unsupported_language: language "ja" is Japanese/);
  }, 90_000);

  test("npm run say --phonemes: the local container's phonemes, through the page server's relay", async () => {
    const plain = await run([
      'run',
      'say',
      '--',
      '--phonemes',
      'Meet [Kokoro](/kˈOkəɹO/) now.',
      '--target',
      url.toString(),
    ]);
    expect(plain.stderr).not.toMatch(/say:/);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^phonemes: \S+ kˈOkəɹO \S+$/m);
    expect(plain.stdout).toMatch(/^tokens: {3}(\d+ )+\d+$/m);
    const ssml = '<speak>One <break time="700ms"/>two</speak>';
    const paused = await run(['run', 'say', '--', '--phonemes', ssml, '--ssml', '--target', url.toString()]);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toMatch(/^ {2}1\. "One" -> .+$\n^ {2}2\. pause 700 ms$\n^ {2}3\. "two" -> /m);
    const bad = await run([
      'run',
      'say',
      '--',
      '--phonemes',
      '<speak><emphasis>x</emphasis></speak>',
      '--ssml',
      '--target',
      url.toString(),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'refused the text (invalid_message: SSML line 1, column 8 (offset 7): the element <emphasis> is not supported',
    );
  }, 60_000);

  test('npm run say --session with --out x.ogg --captions: a conversation written as Ogg Opus with captions', async () => {
    const say = (session: string, prompt: string, out: string) =>
      run(['run', 'say', '--', prompt, '--session', session, '--target', url.toString(), '--out', out, '--captions']);
    const first = await say('new', 'My name is Ada.', join(scratch, 'c1.ogg'));
    expect(first.code).toBe(0);
    const session = /^session ([A-Za-z0-9_-]{33,256})$/m.exec(first.stdout)?.[1];
    expect(session).toBeDefined();
    const second = await say(session!, 'What did I say before?', join(scratch, 'c2.ogg'));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(JSON.stringify('You said: My name is Ada.'));
    expect(second.stdout).toMatch(/Opus from the agent: \d+ bytes/);
    expect(second.stdout).toContain('c2.vtt: 1 captions');
    expect(readOggOpus(await readFile(join(scratch, 'c2.ogg')))).toMatchObject({ channels: 1, inputRate: 24000 });
    const vtt = await readFile(join(scratch, 'c2.vtt'), 'utf8');
    expect(vtt).toMatch(/You <\d\d:\d\d:\d\d\.\d{3}>said: <\d\d:\d\d:\d\d\.\d{3}>My/);
    expect(second.stdout).toContain(`session ${session}`);
  }, 60_000);

  test('say: an unknown option and a bad sample rate are usage errors that name the fix', async () => {
    const unknown = await run(['run', 'say', '--', 'hi', '--sample', '8000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("say: Unknown option '--sample'");
    expect(unknown.stderr).toContain('usage: npm run say');
    const rate = await run(['run', 'say', '--', 'hi', '--sample-rate', '44100', '--target', url.toString()]);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain('--sample-rate must be one of 24000, 16000, 8000, not 44100');
  });

  test('say: a failed turn writes no file and exits 1', async () => {
    const out = join(scratch, 'failed.wav');
    const result = await run([
      'run',
      'say',
      '--',
      'Hello.',
      '--voice',
      'zz_bogus',
      '--out',
      out,
      '--target',
      url.toString(),
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/error unknown_voice: unknown voice "zz_bogus"/);
    expect(result.stderr).toMatch(/say: the turn failed \(unknown_voice: .*\); no WAV written/);
    expect(existsSync(out)).toBe(false);
  });

  test('say: answer.wav goes to the folder the command was typed in, and git ignores it there', async () => {
    const here = join(scratch, 'typed-here');
    await mkdir(here);
    // The checkout may hold a user's own answer.wav (the README's example run there): this run must
    // leave it, or its absence, as it was, whatever it is.
    const inCheckout = () =>
      stat(join(ROOT, 'answer.wav')).then(
        ({ ino, size, mtimeMs }) => ({ ino, size, mtimeMs }),
        () => 'absent',
      );
    const before = await inCheckout();
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      // From another folder, as the deployed stack's cliCommand runs it (npm --prefix <checkout> run say).
      const child = spawn('npm', ['--prefix', ROOT, 'run', 'say', '--', 'Hi there.', '--target', url.toString()], {
        cwd: here,
        env: ECHO_ENV,
      });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote ${join(here, 'answer.wav')}: `);
    expect(existsSync(join(here, 'answer.wav'))).toBe(true);
    expect(await inCheckout()).toEqual(before);
    const { stdout: ignored } = await promisify(execFile)('git', ['check-ignore', 'answer.wav', 'local/answer.wav'], {
      cwd: ROOT,
    });
    expect(ignored.trim().split('\n')).toEqual(['answer.wav', 'local/answer.wav']);
  });

  test('Ctrl-C shuts everything down cleanly', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output()).toMatch(/SIGINT: shutting down/);
    expect(output()).toMatch(/stopped/);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(url.port), '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
