// `npm run -w container fixture -- <dir> [--durations]`: write the stand-in model folder into <dir>
// (--durations: the variant with a durations output, like the timestamped Kokoro export).
import { resolve } from 'node:path';
import { writeFixtureModel, FIXTURE_FILES } from '../src/fixture/index.ts';

const args = process.argv.slice(2);
const durations = args.includes('--durations');
const dir = args.find((a) => !a.startsWith('--'));
if (!dir || args.some((a) => a.startsWith('--') && a !== '--durations')) {
  console.error('usage: npm run -w container fixture -- <dir> [--durations]');
  process.exit(2);
}
const target = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
await writeFixtureModel(target, { durations });
console.log(
  `wrote the Kokoro stand-in model${durations ? ' (with a durations output)' : ''} to ${target}: ${FIXTURE_FILES.join(', ')}`,
);
