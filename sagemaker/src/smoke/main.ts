// `npm run -w sagemaker bidi-smoke -- --endpoint-name NAME [options]`: one
// InvokeEndpointWithBidirectionalStream call with our client against a deployed Kokoro endpoint
// (or the local router), printing what came back in a form to compare line by line with the
// official Python SDK's control call (sagemaker/README.md, "First real deploy: smoke test").
// Credentials: the AWS default provider chain.
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { openBidiStream, runtimeEndpoint, SageMakerStreamError } from '../client/index.ts';
import type { BidiStreamOptions } from '../client/index.ts';
import { argumentsOrExit, parseFlags, UsageError } from '../command-line.ts';

export const USAGE = `usage: npm run -w sagemaker bidi-smoke -- --endpoint-name NAME [options]
  --region R               default $AWS_REGION
  --endpoint URL           runtime URL (default: the region's, port 8443)
  --target-variant NAME    X-Amzn-SageMaker-Target-Variant
  --text TEXT              what to speak (default "Hello from the smoke test.")
  --voice ID               default af_heart`;

function parse(argv: string[]) {
  const values = parseFlags(argv, {
    'endpoint-name': { type: 'string' },
    region: { type: 'string' },
    endpoint: { type: 'string' },
    'target-variant': { type: 'string' },
    text: { type: 'string' },
    voice: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return null;
  if (!values['endpoint-name']) throw new UsageError('--endpoint-name NAME is required');
  const region = values.region ?? process.env.AWS_REGION;
  if (!region) throw new UsageError('--region or AWS_REGION is required');
  const options: BidiStreamOptions = {
    endpointName: values['endpoint-name'],
    region,
    ...(values.endpoint !== undefined && { endpoint: values.endpoint }),
    ...(values['target-variant'] !== undefined && { targetVariant: values['target-variant'] }),
  };
  return { options, text: values.text ?? 'Hello from the smoke test.', voice: values.voice ?? 'af_heart' };
}

async function call(options: BidiStreamOptions, text: string, voice: string): Promise<void> {
  const url = runtimeEndpoint(options.endpoint, options.region, 'bidi', options);
  console.log(`POST ${url.origin}/endpoints/${options.endpointName}/invocations-bidirectional-stream`);
  const started = performance.now();
  const stream = await openBidiStream(options);
  console.log(`200 X-Amzn-Invoked-Production-Variant: ${stream.invokedProductionVariant ?? '(none)'}`);
  const send = (message: object) => stream.send({ bytes: fromUtf8(JSON.stringify(message)), dataType: 'UTF8' });
  send({ type: 'config', voice, format: 'pcm_s16le', sample_rate: 24000 });
  send({ type: 'text', text, id: 'smoke' });
  send({ type: 'end' });
  const counts = { parts: 0, partial: 0, messages: 0, audioMessages: 0, audioBytes: 0 };
  let firstAudioMs: number | undefined;
  let run: Uint8Array[] = [];
  const flushAudio = () => {
    if (counts.audioMessages === 0) return;
    console.log(`< BINARY ${counts.audioMessages} messages, ${counts.audioBytes} bytes so far`);
  };
  try {
    for await (const event of stream.responses) {
      if (event.type !== 'PayloadPart') {
        console.log(`< ${event.type === 'exception' ? event.name : event.type} ${JSON.stringify(event)}`);
        process.exitCode = 1;
        break;
      }
      counts.parts++;
      if (event.completionState === 'PARTIAL') counts.partial++;
      run.push(event.bytes);
      if (event.completionState === 'PARTIAL') continue;
      const bytes = run.length === 1 ? run[0]! : Buffer.concat(run);
      run = [];
      counts.messages++;
      if (event.dataType !== 'UTF8') {
        firstAudioMs ??= performance.now() - started;
        counts.audioMessages++;
        counts.audioBytes += bytes.byteLength;
        continue;
      }
      flushAudio();
      const message = toUtf8(bytes);
      console.log(`< UTF8 ${message}`);
      if ((JSON.parse(message) as { type?: string }).type === 'done') break;
    }
  } finally {
    stream.end();
    stream.close();
  }
  const ms = (value: number | undefined) => (value === undefined ? 'none' : `${Math.round(value)} ms`);
  console.log(
    `summary: ${counts.parts} PayloadParts (${counts.partial} PARTIAL), ${counts.messages} messages, ` +
      `${counts.audioBytes} audio bytes, first audio ${ms(firstAudioMs)}, done ${ms(performance.now() - started)}`,
  );
}

const parsed = argumentsOrExit('bidi-smoke', USAGE, parse);
try {
  await call(parsed.options, parsed.text, parsed.voice);
} catch (error) {
  if (error instanceof SageMakerStreamError)
    console.error(`bidi-smoke: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''}: ${error.message}`);
  else console.error(`bidi-smoke: ${(error as Error).message}`);
  process.exitCode = 1;
}
