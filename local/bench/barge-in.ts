// Barge-in at the page: how long after the customer starts speaking over an answer its playback
// stops. A WAV made here (espeak-ng, sox: a request, a pause, a second utterance) is Chromium's
// microphone; the page talks to the agent (talk-stack.ts: stand-in model, echo LLM, the openai STT
// against its loopback stand-in, Silero in the agent and in the page). Per run, from the page's own
// records (window.kokoro.talk()): the speech onset (where the microphone's level rose after the
// pause, placed on the page's clock), the page's Silero onset, the moment its VAD had heard
// BARGE_IN_MIN_MS of speech, and when the player was told to flush (silent at its next 128-sample
// render quantum, about 5 ms later at 24 kHz). Printed as a table; figures go in
// docs/benchmarks/barge-in.md.
//
//   npm run -w local bench:barge-in -- [--runs 5] [--pause 12]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { hasChromium, launchChromium } from '../src/testing/chromium.ts';
import { fakeMicrophone, spokenWav, startTalkStack } from '../src/testing/talk-stack.ts';

interface TalkLog {
  onsets: { at: number }[];
  vadOnsets: number[];
  cuts: { vadAt: number; stoppedAt: number; playedMs?: number }[];
}
declare const window: { kokoro: { talk(): TalkLog } };

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, pause: { type: 'string', default: '12' } },
});
const runs = Number(values.runs);
const pauseS = Number(values.pause);
if (!hasChromium())
  throw new Error("the barge-in benchmark needs Debian's chromium (apt-get install -y chromium espeak-ng sox)");

const ASK = 'Tell me a long story. ' + 'The story goes on for a while, one sentence after another. '.repeat(16).trim();
const dir = await mkdtemp(join(tmpdir(), 'kokoro-barge-in-'));
const wav = spokenWav(
  dir,
  [
    { pauseS: 1, text: 'Please tell me a long story' },
    { pauseS, text: 'Hold on a moment please' },
  ],
  2,
);
const talk = await startTalkStack([ASK]);
const rows: { onsetToVad: number; onsetToMin: number; onsetToStop: number; playedMs: number }[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    // A new browser each run: Chromium plays the fake microphone's file once per launch.
    const browser = await launchChromium(fakeMicrophone(wav.path));
    try {
      const page = await browser.newPage();
      await page.goto(talk.stack.url);
      await page.getByRole('button', { name: /talk/i }).click();
      const deadline = Date.now() + (pauseS + 60) * 1000;
      let log: TalkLog;
      for (;;) {
        log = await page.evaluate(() => window.kokoro.talk());
        if (log.cuts.length > 0 && log.onsets.length >= 2) break;
        if (Date.now() > deadline) throw new Error(`run ${run}: no barge-in: ${JSON.stringify(log)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300))); // its played_ms comes back
      log = await page.evaluate(() => window.kokoro.talk());
      const onset = log.onsets[1]!.at;
      const cut = log.cuts[0]!;
      const vadOnset = log.vadOnsets.find((at) => at >= onset - 500) ?? NaN;
      const row = {
        onsetToVad: vadOnset - onset,
        onsetToMin: cut.vadAt - onset,
        onsetToStop: cut.stoppedAt - onset,
        playedMs: cut.playedMs ?? NaN,
      };
      rows.push(row);
      console.log(
        `run ${run}: onset -> Silero onset ${row.onsetToVad.toFixed(0)} ms, -> 250 ms of speech heard ${row.onsetToMin.toFixed(0)} ms, ` +
          `-> playback stopped ${row.onsetToStop.toFixed(0)} ms (the answer had played ${(row.playedMs / 1000).toFixed(1)} s)`,
      );
    } finally {
      await browser.close();
    }
  }
} finally {
  await talk.close();
  await rm(dir, { recursive: true, force: true });
}

const sorted = (k: keyof (typeof rows)[number]) => rows.map((r) => r[k]).sort((a, b) => a - b);
const median = (xs: number[]) => xs[Math.floor((xs.length - 1) / 2)]!;
console.log('\n| from the speech onset to | median | min | max |\n|---|---|---|---|');
for (const [label, key] of [
  ["the page's Silero onset", 'onsetToVad'],
  ['250 ms of speech heard (the minimum that cuts)', 'onsetToMin'],
  ['playback stopped at the page', 'onsetToStop'],
] as const) {
  const xs = sorted(key);
  console.log(`| ${label} | ${median(xs).toFixed(0)} ms | ${xs[0]!.toFixed(0)} ms | ${xs.at(-1)!.toFixed(0)} ms |`);
}
console.log(`\n${rows.length} runs, pause ${pauseS} s; goal: playback stopped within 300 ms of the onset`);
