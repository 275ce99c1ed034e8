// `npm run -w container fixture -- <dir>`: write the stand-in model folder into <dir>.
import { resolve } from 'node:path';
import { writeFixtureModel, FIXTURE_FILES } from '../src/fixture/index.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run -w container fixture -- <dir>');
  process.exit(2);
}
const target = resolve(process.env.INIT_CWD ?? process.cwd(), dir);
await writeFixtureModel(target);
console.log(`wrote the Kokoro stand-in model to ${target}: ${FIXTURE_FILES.join(', ')}`);
