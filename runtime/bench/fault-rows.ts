// What faults.ts measures around each scenario, and its table: the agent process's live heap
// (after a GC: before, the highest of a sample a second while the fault lasted, after), its RSS
// and its open file descriptors before and after.
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run -w runtime faults does)');

const MiB = 1024 * 1024;
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const fds = () => readdirSync('/proc/self/fd').length;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);

/** Seconds to one decimal. */
export const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Row {
  scenario: string;
  outcome: string;
  timeMs: number;
  heap: [number, number, number];
  rss: [number, number];
  fds: [number, number];
}

/** The scenarios run (those named with `only`, when given) and the table of what each did. */
export function faultRows(only: string | undefined) {
  const rows: Row[] = [];
  /** Runs one scenario with the heap sampled while it lasts; it returns its outcome and time. */
  async function scenario(name: string, run: () => Promise<{ outcome: string; timeMs: number }>): Promise<void> {
    if (only && !name.includes(only)) return;
    await sleep(200);
    const heapBefore = heap();
    const rssBefore = process.memoryUsage().rss;
    const fdsBefore = fds();
    let peak = heapBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, heap())), 1000);
    let result: { outcome: string; timeMs: number };
    try {
      result = await run();
    } catch (error) {
      result = { outcome: `FAILED: ${(error as Error).message}`, timeMs: NaN };
    } finally {
      clearInterval(sampler);
    }
    await sleep(1500); // sockets closing, timers of the closed turns
    const after = heap();
    const row: Row = {
      scenario: name,
      ...result,
      heap: [heapBefore, peak, after],
      rss: [rssBefore, process.memoryUsage().rss],
      fds: [fdsBefore, fds()],
    };
    rows.push(row);
    console.error(`${name}: ${row.outcome} (${s1(row.timeMs)})`);
  }
  return {
    scenario,
    printRows(): void {
      console.log(
        `\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, load average ${loadavg()
          .map((x) => x.toFixed(1))
          .join(' ')} (1, 5, 15 min) at the end\n`,
      );
      console.log(
        '| fault | what the caller gets | time to it | live heap before / highest / after (MiB) | RSS before / after (MiB) | fds before / after |',
      );
      console.log('|---|---|---|---|---|---|');
      for (const r of rows)
        console.log(
          `| ${r.scenario} | ${r.outcome} | ${s1(r.timeMs)} | ${mib(r.heap[0])} / ${mib(r.heap[1])} / ${mib(r.heap[2])} | ${mib(r.rss[0])} / ${mib(r.rss[1])} | ${r.fds[0]} / ${r.fds[1]} |`,
        );
    },
  };
}
