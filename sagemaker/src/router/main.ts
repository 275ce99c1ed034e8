// `npm run sagemaker-local -- --container URL [--port N]`: the SageMaker runtime's streaming API
// (InvokeEndpointWithBidirectionalStream and InvokeEndpointWithResponseStream) in front of any
// container you develop, on loopback, so that a SageMaker client (ours or the official SDKs) can
// call it as it would call an endpoint. Requests must be signed with the router's local credentials.
import { handleShutdownSignals, LOG_LEVELS, type LogLevel, createLogger } from '@kokoro-speech/protocol/server';
import { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY } from './credentials.ts';
import { startLocalSageMakerRouter } from './router.ts';
import { argumentsOrExit, parseFlags, UsageError } from '../command-line.ts';

export const USAGE = `usage: npm run sagemaker-local -- --container URL [--container URL ...] [options]
  --container URL      the container: http://host:port (its /invocations and WebSocket
                       /invocations-bidirectional-stream, SageMaker's container contract); give it
                       again for each instance of the variant (least outstanding requests routing)
  --port N             port of the router (default 8443, as the SageMaker runtime's; 0 picks a free one)
  --host ADDR          bind address (default 127.0.0.1)
  --endpoint-name NAME accept only this endpoint name (default: any name reaches the container)
  --variant NAME       the endpoint's production variant (default AllTraffic)
  --max-part-bytes N   split container messages over N bytes into PARTIAL..COMPLETE parts (default: never)
  --max-stream-seconds N  end a bidirectional stream with ModelStreamError after N s (default 1800)
environment:
  LOG_LEVEL            log what fails on the router's side as JSON lines: warn (failing containers),
                       error (requests it fails), debug (requests it refuses); default silent`;

function parse(argv: string[]) {
  const values = parseFlags(argv, {
    container: { type: 'string', multiple: true },
    port: { type: 'string' },
    host: { type: 'string' },
    'endpoint-name': { type: 'string' },
    variant: { type: 'string' },
    'max-part-bytes': { type: 'string' },
    'max-stream-seconds': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return null;
  if (!values.container?.length) throw new UsageError('--container URL is required');
  for (const url of values.container) {
    if (!URL.canParse(url) || !/^(https?|wss?):$/.test(new URL(url).protocol))
      throw new UsageError(`--container must be an http(s):// or ws(s):// URL, not ${url}`);
  }
  const port = Number(values.port ?? 8443);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0-65535, not ${values.port}`);
  const positive = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!(n > 0) || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a positive number, not ${value}`);
    return n;
  };
  const partBytes = positive('max-part-bytes', values['max-part-bytes']);
  if (partBytes !== undefined && !Number.isInteger(partBytes))
    throw new UsageError(`--max-part-bytes must be a whole number, not ${values['max-part-bytes']}`);
  const logLevel = (process.env['LOG_LEVEL'] || 'silent') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${process.env['LOG_LEVEL']}`);
  const lifetimeSeconds = positive('max-stream-seconds', values['max-stream-seconds']);
  if (lifetimeSeconds !== undefined && lifetimeSeconds * 1000 > 2 ** 31 - 1)
    throw new UsageError(`--max-stream-seconds must be at most ${Math.floor((2 ** 31 - 1) / 1000)}`);
  return {
    ...(values.container.length === 1
      ? { containerUrl: values.container[0]! as string | undefined, containerUrls: undefined }
      : { containerUrl: undefined, containerUrls: values.container as readonly string[] | undefined }),
    port,
    host: values.host ?? '127.0.0.1',
    ...(values['endpoint-name'] === undefined ? {} : { endpointName: values['endpoint-name'] }),
    ...(values.variant === undefined ? {} : { variantName: values.variant }),
    ...(partBytes === undefined ? {} : { maxResponsePartBytes: partBytes }),
    ...(lifetimeSeconds === undefined ? {} : { maxStreamLifetimeMs: Math.round(lifetimeSeconds * 1000) }),
    logLevel,
  };
}

const options = argumentsOrExit('sagemaker-local', USAGE, parse);
let router;
try {
  router = await startLocalSageMakerRouter({ ...options, logger: createLogger('sagemaker-local', options.logLevel) });
} catch (error) {
  if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
  console.error(`sagemaker-local: ${error.message}\n\n${USAGE}`);
  process.exit(2);
}
console.log(`SageMaker runtime (local) at ${router.url} -> ${options.containerUrl ?? options.containerUrls!.join(', ')}
Call it with a SageMaker client: endpoint URL ${router.url}, any region, endpoint name ${options.endpointName ?? '(any)'},
credentials AWS_ACCESS_KEY_ID=${LOCAL_ACCESS_KEY_ID} AWS_SECRET_ACCESS_KEY=${LOCAL_SECRET_ACCESS_KEY}
(the agent: SAGEMAKER_RUNTIME_URL=${router.url} SAGEMAKER_ENDPOINT_NAME=${options.endpointName ?? 'kokoro-local'} AWS_REGION=us-east-1). Ctrl-C stops.`);
handleShutdownSignals({ close: () => router.close(), onSignal: () => console.log('stopping') });
