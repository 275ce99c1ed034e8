// `npm run say -- "prompt" [--out answer.wav|answer.ogg] [--transport sse|ws] [--target URL|ARN] [--session ID]`:
// streams one turn, writes its audio (WAV, or Ogg Opus), optionally WebVTT captions beside it,
// prints the per-sentence timeline and the metrics event; with --session, the turn belongs to that
// conversation (and the id is printed, for the next turn); `--list-voices` prints the voice list.
// `--audio question.wav` speaks a WAV file as the customer instead (a voice session on the WebSocket).
// Bad usage prints the usage and exits 2; a failed turn writes no file and exits 1 (say-messages.ts).
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { AgentCoreTarget, isRuntimeArn, isRuntimeSessionId, newRuntimeSessionId } from '../agentcore/agentcore.ts';
import { turnRequestSchema } from '@kokoro-speech/protocol';
import { formatTimeline, TurnRecorder } from '../caller/timeline.ts';
import { listVoices, streamTurn, type Transport } from '../caller/turn-client.ts';
import { requireAwsCredentials } from '../stack/preflight.ts';
import { StartupError } from '../stack/startup-error.ts';
import { connectionHint, describeRequestIssues, isParseArgsError, outputPath, UsageError } from './say-messages.ts';
import { sayOutput } from './say-output.ts';
import { fetchPhonemes, formatPhonemes, phonemizeUrl } from './say-phonemes.ts';
import { commandLineError } from '../stack/command-line.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { readVoiceFile } from './say-audio.ts';
import { speakTurn } from '../caller/voice-turn.ts';

const USAGE = `usage: npm run say -- "prompt" [options]
       npm run say -- --audio question.wav [--fast] [options]
       npm run say -- --list-voices [--target URL|ARN]
       npm run say -- --phonemes "text" [--ssml] [--voice ID] [--container URL]
  --out, -o FILE        audio file to write (default answer.wav, in the folder you run this from);
                        .ogg or .opus writes Ogg Opus
  --format pcm|opus     what the agent sends (default: opus for .ogg/.opus files, else pcm);
                        an Opus turn written as .wav is decoded here
  --captions            also write WebVTT captions (word timings) beside the audio: FILE.vtt
  --audio FILE.wav      speak this WAV file (any rate, mono or stereo) as the customer, in real
                        time, over the WebSocket; the agent answers what it heard
  --fast                with --audio: send the audio faster than real time
  --transport sse|ws    how to reach the agent (default sse; ws with --audio)
  --target URL|ARN      a local server (default http://127.0.0.1:3000, or KOKORO_TARGET)
                        or a deployed AgentCore runtime ARN (AWS credentials from the usual chain)
  --qualifier NAME      AgentCore endpoint for ARN targets, e.g. live (or KOKORO_AGENT_QUALIFIER)
  --session ID|new      a conversation: the agent remembers earlier turns of the same id (33-256
                        letters, digits, - and _; "new" makes one); the id is printed
  --list-voices         print the agent's voices (id, name, language, gender, grade) and exit
  --language CODE       answer in this language: en, es, fr, hi, it, pt (ISO 639-1; without
                        --voice, its default voice speaks: docs/contracts/turn.md)
  --phonemes            print the phonemes and token ids a Kokoro container speaks "text" with
                        (after its lexicon, [word](/phonemes/) and, with --ssml, SSML) and exit;
                        asks --container URL (a container's POST /v1/phonemize), else the local
                        npm start server (--target, its /api/phonemize relay)
  --voice ID --speed X --sample-rate 24000|16000|8000 --mode stream|batch
  --help, -h            this text`;

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
      language: { type: 'string' },
      speed: { type: 'string' },
      'sample-rate': { type: 'string' },
      mode: { type: 'string' },
      session: { type: 'string' },
      format: { type: 'string' },
      captions: { type: 'boolean' },
      'list-voices': { type: 'boolean' },
      phonemes: { type: 'boolean' },
      ssml: { type: 'boolean' },
      container: { type: 'string' },
      audio: { type: 'string' },
      fast: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  targetShown = values.target;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values['list-voices']) return printVoices(values.target, values.qualifier);
  if (values.phonemes) {
    const text = positionals.join(' ').trim();
    if (!text) throw new UsageError('--phonemes needs the text');
    const url = phonemizeUrl(values.target, values.container);
    targetShown = url.origin;
    const request = {
      text,
      ...(values.voice === undefined ? {} : { voice: values.voice }),
      ...(values.ssml ? { ssml: true } : {}),
    };
    console.log(formatPhonemes(await fetchPhonemes(url, request)));
    return 0;
  }
  const kind = ['.ogg', '.opus'].includes(extname(values.out).toLowerCase()) ? 'ogg' : 'wav';
  const format = values.format ?? (kind === 'ogg' ? 'opus' : 'pcm');
  if (format !== 'pcm' && format !== 'opus') throw new UsageError(`--format must be pcm or opus, not ${format}`);
  if (kind === 'ogg' && format !== 'opus')
    throw new UsageError(`${values.out} is an Ogg Opus file: it needs --format opus (or a .wav file)`);
  const audioFile = values.audio;
  if (audioFile !== undefined && positionals.length > 0)
    throw new UsageError('--audio speaks the file as the prompt: give no prompt text with it');
  if (
    audioFile !== undefined &&
    (values.mode !== undefined || argv.includes('--transport')) &&
    values.transport !== 'ws'
  )
    throw new UsageError('--audio talks over the WebSocket (--transport ws) and streams (no --mode)');
  if (values.fast && audioFile === undefined) throw new UsageError('--fast goes with --audio');
  const prompt = audioFile === undefined ? positionals.join(' ').trim() : '.';
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
    format: format === 'opus' ? 'opus' : 'pcm_s16le',
    ...(values.captions ? { words: true } : {}),
    ...(values.voice === undefined ? {} : { voice: values.voice }),
    ...(values.language === undefined ? {} : { language: values.language }),
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
        language: values.language,
        mode: values.mode,
      }),
    );
  if (isRuntimeArn(values.target))
    await requireAwsCredentials(
      `--target ${values.target}`,
      'Without AWS: --target http://127.0.0.1:3000 talks to a running npm start.',
    );

  const target = targetOf(values.target, values.qualifier);
  const recorder = new TurnRecorder();
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort(new Error('interrupted')));
  try {
    if (audioFile !== undefined) {
      const { prompt: _prompt, mode: _mode, ...settings } = parsed.data;
      const pcm = await readVoiceFile(audioFile);
      await speakTurn(
        {
          target,
          settings,
          pcm,
          fast: values.fast === true,
          signal: ac.signal,
          ...(session === undefined ? {} : { sessionId: session }),
        },
        (event) => recorder.add(event),
      );
      if (recorder.heard === null && recorder.errors.every((e) => e.code === 'no_speech')) {
        console.error(`say: no speech heard in ${audioFile}: the agent found no words in it; nothing was answered`);
        return 1;
      }
    } else {
      const turn = streamTurn({
        target,
        transport: values.transport as Transport,
        request: parsed.data,
        signal: ac.signal,
        ...(session === undefined ? {} : { sessionId: session }),
      });
      for await (const event of turn.events) recorder.add(event);
    }
  } finally {
    if (target instanceof AgentCoreTarget) target.destroy();
  }

  console.log(formatTimeline(recorder));
  if (recorder.errors.length > 0 || !recorder.done) {
    const why = recorder.errors.map((e) => `${e.code}: ${e.message}`).join('; ') || 'it ended without done';
    console.error(`say: the turn failed (${why}); no ${kind === 'ogg' ? 'Ogg Opus file' : 'WAV'} written`);
    if (session !== undefined) console.log(`session ${session}`);
    return 1;
  }
  if (recorder.sampleRate === null) throw new Error('the agent sent no start event');
  const out = sayOutput(recorder, kind);
  const path = outputPath(values.out);
  await writeFile(path, out.audio);
  const rate = recorder.sampleRate;
  const wire = recorder.audioBytes;
  const seconds = out.samples / rate;
  console.log(
    `wrote ${path}: ${out.samples} samples, ${Math.round(seconds * 1000)} ms at ${rate} Hz` +
      (recorder.format === 'opus' ? ` (Opus from the agent: ${wire} bytes, ${Math.round(wire / seconds)} B/s)` : ''),
  );
  if (values.captions) {
    const vtt = `${path.slice(0, path.length - extname(path).length)}.vtt`;
    await writeFile(vtt, out.captions);
    const cues = out.captions.split('\n\n').length - 1;
    const estimated = recorder.sentences.some((s) => s.wordsEstimated) ? ' (times estimated by the server)' : '';
    console.log(`wrote ${vtt}: ${cues} captions${estimated}`);
  }
  if (session !== undefined) console.log(`session ${session}`);
  return 0;
}

function targetOf(value: string, qualifier: string | undefined): URL | AgentCoreTarget {
  return isRuntimeArn(value)
    ? new AgentCoreTarget({ arn: value, ...(qualifier === undefined ? {} : { qualifier }) })
    : parseUrl(value);
}

async function printVoices(targetValue: string, qualifier: string | undefined): Promise<number> {
  const target = targetOf(targetValue, qualifier);
  try {
    const list = await listVoices(target);
    console.log('voice         name        language  gender  grade');
    for (const v of list.voices) {
      const mark = (v.id === list.default ? ' (default)' : '') + (v.unavailable ? ' (not spoken here)' : '');
      console.log(
        `${v.id.padEnd(13)} ${(v.name ?? '—').padEnd(11)} ${v.language.padEnd(9)} ${(v.gender ?? '—').padEnd(7)} ${v.overall_grade ?? '—'}${mark}`,
      );
    }
    return 0;
  } finally {
    if (target instanceof AgentCoreTarget) target.destroy();
  }
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
  (thrown: unknown) => {
    const err = isParseArgsError(thrown) ? commandLineError(thrown, 'npm run say --') : thrown;
    const usage = err instanceof UsageError;
    console.error(`say: ${connectionHint(err, targetShown) ?? errorMessage(err)}`);
    if (usage) console.error(USAGE);
    process.exit(usage || err instanceof StartupError ? 2 : 1);
  },
);
