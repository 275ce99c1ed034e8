// Time to first audio per language on loopback: the same kind of answer (a customer-service reply
// of four sentences whose first has a clause to cut early) in each language the container speaks,
// our `stream` policy, TTS over a direct WebSocket to the container in its own process (stand-in
// model + the GPU-like delay of bench/first-audio.ts). The languages differ in their segmenter
// rules, their normaliser and their G2P (kokoro-js for English, espeak-ng for the others): the
// container's queue column holds the G2P. Usage: npm run -w runtime bench:languages [-- --runs 7]
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { SpokenLanguage } from '@kokoro-speech/protocol';
import { EchoProvider } from '../src/llm/echo.ts';
import { runTurn, type TurnContext, type TurnResult } from '../src/pipeline/turn.ts';
import { WebSocketTransport } from '../src/tts/websocket-transport.ts';
import { ContainerProcess } from '../src/testing/container-process.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new TypeError(`--runs must be a positive integer, got ${values.runs}`);

/** Written for this benchmark: the same reply in each language. */
const ANSWERS: Record<SpokenLanguage, string> = {
  en:
    'Thank you for calling, I can see your order from the fifteenth of March right here. ' +
    'It left our warehouse yesterday at 12:30 and should arrive by Friday. The delivery costs $3.50. ' +
    'Is there anything else I can help you with today?',
  es:
    'Gracias por llamar, veo aquí mismo su pedido del quince de marzo. ' +
    'Salió de nuestro almacén ayer a las 12:30 y debería llegar el viernes. El envío cuesta 3,50 €. ' +
    '¿Puedo ayudarle con algo más hoy?',
  fr:
    'Merci de votre appel, je vois ici même votre commande du quinze mars. ' +
    'Elle a quitté notre entrepôt hier à 12h30 et devrait arriver vendredi. La livraison coûte 3,50 €. ' +
    'Puis-je vous aider pour autre chose aujourd’hui ?',
  hi:
    'कॉल करने के लिए धन्यवाद, मैं यहीं पंद्रह मार्च का आपका ऑर्डर देख रहा हूँ। ' +
    'यह कल 12:30 बजे हमारे गोदाम से निकला और शुक्रवार तक पहुँच जाना चाहिए। डिलीवरी की कीमत ₹50 है। ' +
    'क्या मैं आज आपकी और कोई मदद कर सकता हूँ?',
  it:
    'Grazie per aver chiamato, vedo qui il suo ordine del quindici marzo. ' +
    'È partito dal nostro magazzino ieri alle 12:30 e dovrebbe arrivare venerdì. La spedizione costa 3,50 €. ' +
    'Posso aiutarla con qualcos’altro oggi?',
  pt:
    'Obrigado por ligar, vejo aqui mesmo o seu pedido de quinze de março. ' +
    'Ele saiu do nosso depósito ontem às 12:30 e deve chegar na sexta-feira. A entrega custa R$ 3,50. ' +
    'Posso ajudar em mais alguma coisa hoje?',
};

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
const fmt = (x: number) => x.toFixed(1).padStart(9);

const container = await ContainerProcess.start(
  { SIMULATED_DELAY_MS: '60', SIMULATED_DELAY_PER_CHAR_MS: '0.4' },
  { bench: true },
);
const context: TurnContext = {
  llm: new EchoProvider({ firstTokenMs: 400, tokensPerSecond: 40 }),
  tts: new WebSocketTransport({ url: container.wsUrl }),
  defaults: { voice: 'af_heart', speed: 1, format: 'pcm_s16le', sample_rate: 24000 },
};

async function turn(language: SpokenLanguage): Promise<TurnResult> {
  const controller = new AbortController();
  const result = await runTurn(context, {
    request: { prompt: ANSWERS[language], language },
    signal: controller.signal,
    emit: (e) => void (e.type === 'sentence_end' && controller.abort()),
  });
  if (result.sentences[0]?.firstAudioMs === undefined) throw new Error(`${language}: no first audio`);
  return result;
}

const languages = Object.keys(ANSWERS) as SpokenLanguage[];
for (const language of languages) await turn(language); // warm-up: each language's G2P loads once per worker
const results = new Map<SpokenLanguage, TurnResult[]>(languages.map((l) => [l, []]));
for (let run = 0; run < RUNS; run++) {
  for (const language of languages) results.get(language)!.push(await turn(language));
  process.stderr.write(`run ${run + 1}/${RUNS} done\n`);
}

console.log(`\nfirst audio per language on loopback, ${RUNS} runs each, ${new Date().toISOString().slice(0, 10)}`);
console.log(
  `echo LLM 400 ms to first token, 40 tokens/s; container: stand-in + 60 ms + 0.4 ms/char per piece; ` +
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'})\n`,
);
console.log(
  '| language | first audio p50 (ms) | p95 | piece ready p50 | container queue p50 | overhead p50 | first piece |',
);
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const language of languages) {
  const firsts = results.get(language)!.map((r) => r.sentences[0]!);
  const first = firsts.map((s) => s.firstAudioMs!);
  const overhead = firsts.map((s) => s.firstAudioMs! - s.readyMs - s.synthesisMs!);
  console.log(
    `| ${language} |${fmt(percentile(first, 50))} |${fmt(percentile(first, 95))} |${fmt(
      percentile(
        firsts.map((s) => s.readyMs),
        50,
      ),
    )} |${fmt(
      percentile(
        firsts.map((s) => s.queueMs ?? 0),
        50,
      ),
    )} |${fmt(percentile(overhead, 50))} | ${JSON.stringify(firsts[0]!.text)} |`,
  );
}
await container.close();
