// Test support for the local router's suites: a fake protocol-v1 container behind a router started
// before the suite's tests and closed after them, a bidirectional stream opened on it, and a reader
// of its response events.
import { afterAll, beforeAll } from '@jest/globals';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { startFakeContainer, type FakeContainer } from '@kokoro-speech/protocol/testing';
import { openBidiStream, type BidiStream, type ResponseEvent } from '../client/index.ts';
import { LOCAL_CREDENTIALS } from '../router/credentials.ts';
import {
  startLocalSageMakerRouter,
  type LocalSageMakerRouter,
  type LocalSageMakerRouterOptions,
} from '../router/router.ts';

export const REGION = 'us-east-1';
export const NAME = 'kokoro-local';

export interface RouterSuite {
  readonly fake: FakeContainer;
  readonly router: LocalSageMakerRouter;
  /** A bidirectional stream to the suite's router, signed with the local credentials. */
  open(overrides?: Partial<Parameters<typeof openBidiStream>[0]>): ReturnType<typeof openBidiStream>;
}

/** A fake container behind a router (endpoint name NAME unless `options` say otherwise) for the suite. */
export function suiteRouter(options: Partial<LocalSageMakerRouterOptions> = {}): RouterSuite {
  const endpointName = options.endpointName ?? NAME;
  let fake: FakeContainer | undefined;
  let router: LocalSageMakerRouter | undefined;
  beforeAll(async () => {
    fake = await startFakeContainer();
    router = await startLocalSageMakerRouter({ ...options, containerUrl: fake.url, endpointName });
  });
  afterAll(async () => {
    await router?.close();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite router is not started yet (use it inside a test)');
    return value;
  };
  return {
    get fake() {
      return started(fake);
    },
    get router() {
      return started(router);
    },
    open: (overrides = {}) =>
      openBidiStream({
        endpointName,
        region: REGION,
        endpoint: started(router).url,
        credentials: LOCAL_CREDENTIALS,
        ...overrides,
      }),
  };
}

export const json = (value: object) => fromUtf8(JSON.stringify(value));

const iterators = new WeakMap<BidiStream, AsyncIterator<ResponseEvent>>();

/** Reads response events until `until` says stop; JSON parts are parsed. */
export async function read(
  stream: BidiStream,
  until: (event: ResponseEvent, parsed: unknown) => boolean,
): Promise<Array<{ event: ResponseEvent; parsed: unknown }>> {
  const seen: Array<{ event: ResponseEvent; parsed: unknown }> = [];
  // One iterator per stream, advanced by hand: a `break` out of for-await would end the stream.
  let iterator = iterators.get(stream);
  if (!iterator) iterators.set(stream, (iterator = stream.responses[Symbol.asyncIterator]()));
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const event = next.value;
    const parsed = event.type === 'PayloadPart' && event.dataType === 'UTF8' ? JSON.parse(toUtf8(event.bytes)) : null;
    seen.push({ event, parsed });
    if (until(event, parsed)) break;
  }
  return seen;
}
