// `npm run say -- "prompt" [--out answer.wav] [--transport sse|ws] [--target URL|ARN]`: streams one
// turn, writes its audio as WAV, prints the per-sentence timeline and the metrics event.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AgentCoreTarget, isRuntimeArn } from '../agentcore/agentcore.ts';
import { turnRequestSchema } from '@kokoro-speech/protocol';
import { formatTimeline, TurnRecorder } from '../caller/timeline.ts';
import { streamTurn, type Transport } from '../caller/turn-client.ts';
import { encodeWav } from '../caller/wav.ts';
import { requireAwsCredentials } from '../stack/preflight.ts';
import { StartupError } from '../stack/startup-error.ts';
import { connectionHint, describeRequestIssues, isParseArgsError, outputPath, UsageError } from './say-messages.ts';

const USAGE = `usage: npm run say -- "prompt" [options]
  --out FILE            WAV file to write (default answer.wav, in the folder you run this from)
  --transport sse|ws    how to reach the agent (default sse)
  --target URL|ARN      a local server (default http://127.0.0.1:3000, or KOKORO_TARGET)
                        or a deployed AgentCore runtime ARN (AWS credentials from the usual chain)
  --qualifier NAME      AgentCore endpoint for ARN targets, e.g. live (or KOKORO_AGENT_QUALIFIER)
  --voice ID --speed X --sample-rate 24000|16000|8000 --mode stream|batch`;

/** The agent this run talks to, for messages. */
let targetShown = process.env['KOKORO_TARGET'] ?? 'http://127.0.0.1:3000';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o', default: 'answer.wav' },
      transport: { type: 'string', default: 'sse' },
      target: { type: 'string', default: process.env['KOKORO_TARGET'] ?? 'http://127.0.0.1:3000' },
      qualifier: {
        type: 'string',
        ...(process.env['KOKORO_AGENT_QUALIFIER'] ? { default: process.env['KOKORO_AGENT_QUALIFIER'] } : {}),
      },
      voice: { type: 'string' },
      speed: { type: 'string' },
      'sample-rate': { type: 'string' },
      mode: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  targetShown = values.target;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('a prompt is required');
  if (values.transport !== 'sse' && values.transport !== 'ws')
    throw new UsageError(`--transport must be sse or ws, not ${values.transport}`);
  const parsed = turnRequestSchema.safeParse({
    prompt,
    format: 'pcm_s16le',
    ...(values.voice === undefined ? {} : { voice: values.voice }),
    ...(values.speed === undefined ? {} : { speed: Number(values.speed) }),
    ...(values['sample-rate'] === undefined ? {} : { sample_rate: Number(values['sample-rate']) }),
    ...(values.mode === undefined ? {} : { mode: values.mode }),
  });
  if (!parsed.success)
    throw new UsageError(
      describeRequestIssues(parsed.error.issues, {
        sample_rate: values['sample-rate'],
        speed: values.speed,
        voice: values.voice,
        mode: values.mode,
      }),
    );
  if (isRuntimeArn(values.target))
    await requireAwsCredentials(
      `--target ${values.target}`,
      'Without AWS: --target http://127.0.0.1:3000 talks to a running npm start.',
    );

  const target = isRuntimeArn(values.target)
    ? new AgentCoreTarget({
        arn: values.target,
        ...(values.qualifier === undefined ? {} : { qualifier: values.qualifier }),
      })
    : parseUrl(values.target);
  const recorder = new TurnRecorder();
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort(new Error('interrupted')));
  try {
    const turn = streamTurn({
      target,
      transport: values.transport as Transport,
      request: parsed.data,
      signal: ac.signal,
    });
    for await (const event of turn.events) recorder.add(event);
  } finally {
    if (target instanceof AgentCoreTarget) target.destroy();
  }

  console.log(formatTimeline(recorder));
  if (recorder.sampleRate === null) throw new Error('the agent sent no start event');
  if (recorder.errors.length > 0 || !recorder.done) {
    const why = recorder.errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'it ended without done';
    console.error(`say: the turn failed (${why}); no WAV written`);
    return 1;
  }
  const wav = encodeWav(recorder.sampleRate, recorder.audio);
  const out = outputPath(values.out);
  await writeFile(out, wav);
  const samples = recorder.audioBytes / 2;
  console.log(
    `wrote ${out}: ${samples} samples, ${Math.round((samples / recorder.sampleRate) * 1000)} ms at ${recorder.sampleRate} Hz`,
  );
  return 0;
}

function parseUrl(value: string): URL {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // fall through
  }
  throw new UsageError(`--target must be an http(s) URL or an AgentCore runtime ARN, not ${JSON.stringify(value)}`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError || isParseArgsError(err);
    console.error(`say: ${connectionHint(err, targetShown) ?? (err instanceof Error ? err.message : String(err))}`);
    if (usage) console.error(USAGE);
    process.exit(usage || err instanceof StartupError ? 2 : 1);
  },
);
