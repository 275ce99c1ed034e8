// What each browser transport and audio format costs for the same turn: bytes on the wire per
// second of audio, time to first audio, and the server's CPU time. Starts `npm start -- --offline`
// (the stand-in model, echo LLM) in a child process, then runs the same prompt over SSE and
// WebSocket, as PCM and as Opus, through the web server, taking turns, and prints medians and the
// Opus/PCM ratios of this run.
//   npm run -w local bench:browser -- [--turns 6] [--sample-rate 24000]
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { streamTurn } from '../src/caller/turn-client.ts';
import { TurnRecorder } from '../src/caller/timeline.ts';
import { measureInBrowser, type Case } from './browser-page.ts';

const { values } = parseArgs({
  options: { turns: { type: 'string', default: '6' }, 'sample-rate': { type: 'string', default: '24000' } },
});
const TURNS = Number(values.turns);
const SAMPLE_RATE = Number(values['sample-rate']) as 24000 | 16000 | 8000;
const PROMPT =
  'Streaming speech changes how a voice agent feels. Instead of waiting for the whole answer, the agent ' +
  'speaks its first sentence while the rest is still being written. Each sentence goes to the speech model ' +
  'the moment it is complete, and its audio starts playing as soon as the first samples arrive. The listener ' +
  'hears a reply in well under a second, and the conversation keeps its natural rhythm. Barge-in matters too: ' +
  'when the listener interrupts, stale audio must stop at once.';

const MS_PER_TICK = 1000 / 100; // /proc times are in clock ticks; USER_HZ is 100 on Linux

/** utime + stime of a process (all threads) and of its main thread, in ms. */
async function cpuMs(pid: number): Promise<{ process: number; main: number }> {
  const read = async (path: string) => {
    const fields = (await readFile(path, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK; // utime, stime
  };
  return { process: await read(`/proc/${pid}/stat`), main: await read(`/proc/${pid}/task/${pid}/stat`) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['local/src/stack/main.ts', '--offline', '--port', '0', '--llm', 'echo'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      ECHO_FIRST_TOKEN_MS: process.env['ECHO_FIRST_TOKEN_MS'] ?? '400',
      ECHO_TOKENS_PER_SECOND: process.env['ECHO_TOKENS_PER_SECOND'] ?? '40',
    },
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/\S+) /.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
  });
  try {
    type Row = {
      bytesPerAudioS: number;
      firstAudioMs: number;
      agentFirstAudioMs: number;
      cpuMsPerAudioS: number;
      mainCpuMsPerAudioS: number;
      audioS: number;
    };
    const CASES: Case[] = ['sse/pcm', 'ws/pcm', 'sse/opus', 'ws/opus'];
    const rows = Object.fromEntries(CASES.map((c) => [c, [] as Row[]])) as Record<Case, Row[]>;
    const order: Case[] = [];
    for (let i = 0; i < TURNS; i++) order.push(...(i % 2 === 0 ? CASES : [...CASES].reverse()));
    for (const [i, c] of [...order].entries()) {
      const [transport, format] = c.split('/') as ['sse' | 'ws', 'pcm' | 'opus'];
      const before = await cpuMs(child.pid!);
      const turn = streamTurn({
        target: url,
        transport,
        request: { prompt: PROMPT, format: format === 'opus' ? 'opus' : 'pcm_s16le', sample_rate: SAMPLE_RATE },
      });
      const rec = new TurnRecorder();
      for await (const event of turn.events) rec.add(event);
      const after = await cpuMs(child.pid!);
      if (!rec.done || rec.errors.length) throw new Error(`turn failed: ${JSON.stringify(rec.errors)}`);
      const audioS = (rec.metrics?.audio_ms ?? NaN) / 1000;
      if (i < CASES.length) continue; // warm-up: one turn of each
      rows[c].push({
        bytesPerAudioS: turn.wire().read / audioS,
        firstAudioMs: rec.sentences[0]?.firstAudioAt ?? NaN,
        agentFirstAudioMs: rec.metrics?.first_audio_ms ?? NaN,
        cpuMsPerAudioS: (after.process - before.process) / audioS,
        mainCpuMsPerAudioS: (after.main - before.main) / audioS,
        audioS,
      });
    }
    const raw = SAMPLE_RATE * 2;
    console.log(
      `${new Date().toISOString()}: same turn (${PROMPT.length} characters, echo LLM 400 ms first token, 40 tokens/s; stand-in model), ${SAMPLE_RATE} Hz PCM s16le = ${raw} B per second of audio; Opus 20 ms frames at 24 kb/s; medians of ${TURNS - 1} turns each`,
    );
    console.log(
      'case       wire bytes/s audio   vs raw PCM   first audio at caller (min-max)   at agent   server CPU ms/s audio (all threads / main thread)',
    );
    for (const t of CASES) {
      const r = rows[t];
      const bytes = median(r.map((x) => x.bytesPerAudioS));
      console.log(
        `${t.padEnd(9)}  ${Math.round(bytes).toString().padStart(18)}   ${`${((bytes / raw) * 100).toFixed(1)}%`.padStart(10)}   ${`${Math.round(median(r.map((x) => x.firstAudioMs)))} ms (${Math.round(Math.min(...r.map((x) => x.firstAudioMs)))}-${Math.round(Math.max(...r.map((x) => x.firstAudioMs)))})`.padStart(31)}   ${`${Math.round(median(r.map((x) => x.agentFirstAudioMs)))} ms`.padStart(8)}   ${median(
          r.map((x) => x.cpuMsPerAudioS),
        )
          .toFixed(1)
          .padStart(8)} / ${median(r.map((x) => x.mainCpuMsPerAudioS)).toFixed(1)}`,
      );
    }
    console.log(`audio per turn: ${median(rows['sse/pcm'].map((x) => x.audioS)).toFixed(2)} s`);
    const m = (c: Case, k: keyof Row) => median(rows[c].map((x) => x[k]));
    for (const t of ['sse', 'ws'] as const) {
      console.log(
        `${t}: Opus/PCM bytes ${(m(`${t}/opus`, 'bytesPerAudioS') / m(`${t}/pcm`, 'bytesPerAudioS')).toFixed(3)}x, first audio at caller ${(m(`${t}/opus`, 'firstAudioMs') - m(`${t}/pcm`, 'firstAudioMs')).toFixed(1)} ms later, server CPU ${(m(`${t}/opus`, 'cpuMsPerAudioS') - m(`${t}/pcm`, 'cpuMsPerAudioS')).toFixed(1)} ms/s more`,
      );
    }

    // The same prompt from the page in Chromium: what a listener gets.
    const inPage = await measureInBrowser(url, PROMPT, order);
    if (inPage === null) {
      console.log('(no /usr/bin/chromium: page figures skipped)');
      return;
    }
    console.log(`\nin the page (Chromium), medians of ${TURNS - 1} turns each, ms since Enter:`);
    console.log('case       first text   first audio   first sound (range)   page bytes/s audio');
    const pm = (c: Case, k: 'firstText' | 'firstAudio' | 'firstSound' | 'bytesPerAudioS') =>
      median(inPage[c].map((x) => x[k]));
    for (const t of CASES) {
      const r = inPage[t];
      const sound = r.map((x) => x.firstSound);
      console.log(
        `${t.padEnd(9)}   ${`${Math.round(pm(t, 'firstText'))} ms`.padStart(10)}   ${`${Math.round(pm(t, 'firstAudio'))} ms`.padStart(11)}   ${`${Math.round(median(sound))} ms (${Math.round(Math.min(...sound))}-${Math.round(Math.max(...sound))})`.padStart(19)}   ${Math.round(pm(t, 'bytesPerAudioS'))}`,
      );
    }
    for (const t of ['sse', 'ws'] as const) {
      const sound = pm(`${t}/opus`, 'firstSound') - pm(`${t}/pcm`, 'firstSound');
      console.log(
        `${t}: Opus first sound ${sound.toFixed(1)} ms after PCM's (one frame is 20 ms), first audio ${(pm(`${t}/opus`, 'firstAudio') - pm(`${t}/pcm`, 'firstAudio')).toFixed(1)} ms`,
      );
    }
  } finally {
    child.kill('SIGINT');
    await new Promise((r) => child.once('exit', r));
  }
}

await main();
