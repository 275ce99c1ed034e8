// `npm run say -- "prompt" [--out answer.wav] [--transport sse|ws] [--target URL|ARN] [--session ID]`:
// streams one turn, writes its audio as WAV, prints the per-sentence timeline and the metrics event;
// with --session, the turn belongs to that conversation (and the id is printed, for the next turn).
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AgentCoreTarget, isRuntimeArn, isRuntimeSessionId, newRuntimeSessionId } from '../agentcore/agentcore.ts';
import { turnRequestSchema } from '@kokoro-speech/protocol';
import { formatTimeline, TurnRecorder } from '../caller/timeline.ts';
import { streamTurn, type Transport } from '../caller/turn-client.ts';
import { encodeWav } from '../caller/wav.ts';

const USAGE = `usage: npm run say -- "prompt" [options]
  --out FILE            WAV file to write (default answer.wav)
  --transport sse|ws    how to reach the agent (default sse)
  --target URL|ARN      a local server (default http://127.0.0.1:3000, or KOKORO_TARGET)
                        or a deployed AgentCore runtime ARN (AWS credentials from the usual chain)
  --qualifier NAME      AgentCore endpoint for ARN targets, e.g. live (or KOKORO_AGENT_QUALIFIER)
  --session ID|new      a conversation: the agent remembers earlier turns of the same id (33-256
                        letters, digits, - and _; "new" makes one); the id is printed
  --voice ID --speed X --sample-rate 24000|16000|8000 --mode stream|batch`;

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
      session: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const prompt = positionals.join(' ').trim();
  if (!prompt) throw new UsageError('a prompt is required');
  if (values.transport !== 'sse' && values.transport !== 'ws')
    throw new UsageError(`--transport must be sse or ws, not ${values.transport}`);
  const session = values.session === 'new' ? newRuntimeSessionId() : values.session;
  if (session !== undefined && !isRuntimeSessionId(session))
    throw new UsageError(
      `--session must be 33-256 letters, digits, - and _ (or "new"), not ${JSON.stringify(session)}`,
    );
  const parsed = turnRequestSchema.safeParse({
    prompt,
    ...(session === undefined ? {} : { session_id: session }),
    format: 'pcm_s16le',
    ...(values.voice === undefined ? {} : { voice: values.voice }),
    ...(values.speed === undefined ? {} : { speed: Number(values.speed) }),
    ...(values['sample-rate'] === undefined ? {} : { sample_rate: Number(values['sample-rate']) }),
    ...(values.mode === undefined ? {} : { mode: values.mode }),
  });
  if (!parsed.success)
    throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));

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
      ...(session === undefined ? {} : { sessionId: session }),
    });
    for await (const event of turn.events) recorder.add(event);
  } finally {
    if (target instanceof AgentCoreTarget) target.destroy();
  }

  console.log(formatTimeline(recorder));
  if (recorder.sampleRate === null) throw new Error('the agent sent no start event');
  const wav = encodeWav(recorder.sampleRate, recorder.audio);
  await writeFile(values.out, wav);
  const samples = recorder.audioBytes / 2;
  console.log(
    `wrote ${values.out}: ${samples} samples, ${Math.round((samples / recorder.sampleRate) * 1000)} ms at ${recorder.sampleRate} Hz`,
  );
  if (session !== undefined) console.log(`session ${session}`);
  if (recorder.errors.length > 0 || !recorder.done) return 1;
  return 0;
}

class UsageError extends Error {}

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
    console.error(`say: ${err instanceof Error ? err.message : String(err)}`);
    if (err instanceof UsageError) console.error(USAGE);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
