// The stream tries of one retrier.connect (stream-retrier.ts) as an observer hears them (traces and
// metrics, src/observability): the first try for its reason (open, retry after a refusal,
// reconnect after a break), those after it retries; each one's end: ready, refused or failed.
import { TtsTransportError, type StreamTry, type TtsSessionObserver } from './types.ts';

export function observedTries<T>(
  connect: () => Promise<T>,
  why: StreamTry,
  observer: TtsSessionObserver | undefined,
): () => Promise<T> {
  if (!observer) return connect;
  let first = true;
  return async () => {
    const ended = observer.streamTry(first ? why : 'retry');
    first = false;
    try {
      const result = await connect();
      ended({ result: 'ready' });
      return result;
    } catch (error) {
      const refused = error instanceof TtsTransportError && error.code === 'overloaded';
      ended({ result: refused ? 'refused' : 'failed', error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
}
