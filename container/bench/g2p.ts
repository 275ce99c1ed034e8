// Text preparation cost per language (G2P, vocabulary check, tokens, word maps) in the prep
// workers, on the stand-in model: process CPU per sentence and per 100 phoneme tokens, with and
// without word maps, and the first sentence of a language (espeak-ng's wasm loads then).
// Per second of audio: Kokoro speaks about TOKENS_PER_SECOND tokens a second (see the output).
//   npm run -w container bench:g2p
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureModel } from '../src/fixture/index.ts';
import { loadKokoroEngine, type KokoroEngine } from '../src/engine/index.ts';

const CORPUS: Record<string, { voice: string; sentences: string[] }> = {
  'en-us': {
    voice: 'af_heart',
    sentences: [
      'Your order shipped this morning and should arrive on Thursday.',
      'The total comes to $42.50, including tax.',
      'Is there anything else I can do for you today?',
      'The meeting moved to 3:30 pm on May 5th, in room 12B.',
    ],
  },
  es: {
    voice: 'ef_dora',
    sentences: [
      'Su pedido salió esta mañana y debería llegar el jueves.',
      'El total es de 42,50 euros, impuestos incluidos.',
      '¿Hay algo más en lo que pueda ayudarle hoy?',
      'La reunión se ha movido a las 15:30 del 5 de mayo, en la sala 12.',
    ],
  },
  'fr-fr': {
    voice: 'ff_siwis',
    sentences: [
      'Votre commande est partie ce matin et devrait arriver jeudi.',
      'Le total est de 42,50 euros, taxes comprises.',
      'Puis-je faire autre chose pour vous aujourd’hui ?',
      'La réunion est déplacée à 15 h 30 le 5 mai, en salle 12.',
    ],
  },
  hi: {
    voice: 'hf_alpha',
    sentences: [
      'आपका ऑर्डर आज सुबह भेज दिया गया और गुरुवार तक पहुँच जाएगा।',
      'कुल राशि 42 रुपये 50 पैसे है, कर सहित।',
      'क्या मैं आज आपकी और कोई मदद कर सकती हूँ?',
      'बैठक अब 5 मई को दोपहर 3:30 बजे, कमरा 12 में होगी।',
    ],
  },
  it: {
    voice: 'if_sara',
    sentences: [
      'Il suo ordine è partito stamattina e dovrebbe arrivare giovedì.',
      'Il totale è di 42,50 euro, tasse incluse.',
      'Posso fare qualcos’altro per lei oggi?',
      'La riunione è stata spostata alle 15:30 del 5 maggio, nella sala 12.',
    ],
  },
  'pt-br': {
    voice: 'pf_dora',
    sentences: [
      'Seu pedido saiu hoje de manhã e deve chegar na quinta-feira.',
      'O total é de 42,50 reais, com impostos.',
      'Posso ajudar em mais alguma coisa hoje?',
      'A reunião foi para as 15h30 do dia 5 de maio, na sala 12.',
    ],
  },
};
const ROUNDS = 20;
/** Kokoro-82M's speaking rate at speed 1, roughly: ~12 phoneme tokens per second of audio. */
const TOKENS_PER_SECOND = 12;

const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

async function measure(engine: KokoroEngine, voice: string, sentences: string[]) {
  const first = process.cpuUsage();
  const t0 = performance.now();
  await engine.prepare(sentences[0]!, voice);
  const firstMs = { cpu: cpuMs(first), wall: performance.now() - t0 };
  for (const s of sentences) await engine.prepare(s, voice); // warm the per-word cache as a session would
  let tokens = 0;
  const start = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) {
    // A fresh word each round keeps the word cache from hiding the per-word G2P calls.
    for (const s of sentences) for (const p of await engine.prepare(`${s} ${r}`, voice)) tokens += p.tokenIds.length;
  }
  const cpu = cpuMs(start);
  const n = ROUNDS * sentences.length;
  return { firstMs, perSentence: cpu / n, per100Tokens: (cpu / tokens) * 100, tokensPerSentence: tokens / n };
}

const dir = await mkdtemp(join(tmpdir(), 'kokoro-g2p-bench-'));
await writeFixtureModel(dir);
try {
  const rows: string[] = [];
  for (const wordMaps of [true, false]) {
    const engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1, wordMaps });
    for (const [language, { voice, sentences }] of Object.entries(CORPUS)) {
      const m = await measure(engine, voice, sentences);
      const perAudioSecond = (m.per100Tokens / 100) * TOKENS_PER_SECOND;
      rows.push(
        `| ${language} | ${wordMaps ? 'yes' : 'no'} | ${m.perSentence.toFixed(2)} | ${m.per100Tokens.toFixed(2)} | ` +
          `${perAudioSecond.toFixed(2)} | ${m.tokensPerSentence.toFixed(0)} | ${m.firstMs.cpu.toFixed(0)} / ${m.firstMs.wall.toFixed(0)} |`,
      );
    }
    await engine.close();
  }
  console.log(
    '| language | word maps | CPU ms / sentence | CPU ms / 100 tokens | CPU ms / s of audio (~12 tokens/s) | tokens / sentence | first sentence CPU / wall ms |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await rm(dir, { recursive: true, force: true });
}
