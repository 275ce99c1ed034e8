// A one-line download progress bar on stderr (redrawn in place on a terminal, a line per file otherwise).
import type { SyncProgress } from '@kokoro-speech/weights';

const WIDTH = 28;

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

export function progressBar(stream: NodeJS.WriteStream = process.stderr): (p: SyncProgress) => void {
  let lastFile: string | undefined;
  let lastDraw = 0;
  return (p) => {
    const fraction = p.totalBytes > 0 ? p.bytes / p.totalBytes : 1;
    const done = p.file === undefined;
    if (!stream.isTTY) {
      if (p.file !== lastFile && p.file !== undefined) stream.write(`downloading ${p.file} (${mb(p.fileSize)})\n`);
      if (done) stream.write(`downloaded and verified ${p.filesTotal} files, ${mb(p.totalBytes)}\n`);
      lastFile = p.file;
      return;
    }
    const now = Date.now();
    if (!done && now - lastDraw < 100 && p.file === lastFile) return; // redraw at most 10 times a second
    lastDraw = now;
    lastFile = p.file;
    const filled = Math.round(fraction * WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
    const what = done ? 'verified' : (p.file ?? '');
    stream.write(
      `\r${bar} ${(fraction * 100).toFixed(0).padStart(3)}%  ${mb(p.bytes)} / ${mb(p.totalBytes)}  ${what}`.padEnd(100),
    );
    if (done) stream.write('\n');
  };
}
