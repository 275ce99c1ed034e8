// Reads the stages of a Dockerfile (FROM ... AS name, then its instructions), so that the stacks'
// tests can assert what the images they build are: who runs them, on which platform each stage
// runs, which stage runs commands. Line continuations are joined; comments dropped.
import { readFileSync } from 'node:fs';

export interface Stage {
  name: string | undefined;
  /** The `--platform=` of its FROM, if any. */
  platform: string | undefined;
  from: string;
  instructions: { keyword: string; args: string }[];
}

export function dockerfileStages(path: string): Stage[] {
  const lines = readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const platform = /--platform=(\S+)/.exec(args)?.[1];
      const words = args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({ name: as >= 0 ? words[as + 1] : undefined, platform, from: words[0]!, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}
