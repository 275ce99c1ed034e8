// Benchmark: µs per token for SentenceSegmenter.push on a long multi-paragraph answer.
// Run: npm exec -- node runtime/src/text/segmenter.bench.ts
import { SentenceSegmenter } from './segmenter.ts';

const paragraph =
  'Sure, here is a detailed answer to your question about the U.S. economy in 2026. ' +
  'GDP grew by 2.5% last year, e.g. in services, while prices rose to $1,299.99 for a typical laptop (see Fig. 3). ' +
  'Dr. Smith, an economist at example.com, said: "Growth will continue." Then she added... well, nothing more! ' +
  'Here are the main points:\n- Services grew fastest.\n- Manufacturing was flat.\n1. Rates fell at 10:30 a.m. on Nov. 30.\n\n';
const answer = paragraph.repeat(40); // ~17 kB, a very long answer
// LLM-like deltas: up to 5 characters with their leading whitespace (~4 characters per token).
const tokens = answer.match(/\s*\S{1,5}|\s+$/g) ?? [];
if (tokens.join('') !== answer) throw new Error('bench tokenisation lost text');

function run(): number {
  const s = new SentenceSegmenter();
  let pieces = 0;
  for (const t of tokens) pieces += s.push(t).length;
  return pieces + s.flush().length;
}

for (let w = 0; w < 50; w++) run(); // warm-up (JIT)
const rounds = 200;
const t0 = process.hrtime.bigint();
let pieces = 0;
for (let r = 0; r < rounds; r++) pieces = run();
const ns = Number(process.hrtime.bigint() - t0);
const perToken = ns / 1000 / (rounds * tokens.length);
console.log(`answer: ${answer.length} chars, ${tokens.length} tokens, ${pieces} pieces`);
console.log(`push: ${perToken.toFixed(3)} µs per token (${(ns / 1e6 / rounds).toFixed(2)} ms per answer)`);
