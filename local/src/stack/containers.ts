// The Kokoro containers `npm start` runs behind the local SageMaker router: one in this process,
// or N child processes (--instances), each the real entry point.
import { configFromEnv, startServer } from '@kokoro-speech/container';
import { startServerProcess } from '@kokoro-speech/container/process';
import { BIDI_PATH } from '@kokoro-speech/protocol';
import type { TraceConsole } from '../trace/trace-console.ts';
import type { LocalDtype } from './model.ts';
import { consoleServerLogger, formatServerLogLine, type ServerLogOptions } from './server-log.ts';

/** A Kokoro server npm start runs: its HTTP base and its bidirectional-stream URL. */
export interface LocalContainer {
  url: string;
  wsUrl: string;
}

/**
 * The Kokoro containers, with admission control on as on SageMaker: one in this process, or
 * (instances > 1) one child process each, the real entry point, like separate instances. Their
 * logs reach the console as one line per warning or error either way (server-log.ts).
 */
export async function startContainers(
  instances: number,
  model: { dir: string; dtype: LocalDtype },
  closers: (() => Promise<void>)[],
  serverLog: ServerLogOptions & { quietWhile: () => boolean },
  traces?: TraceConsole,
): Promise<LocalContainer[]> {
  if (instances === 1) {
    const container = await startServer({
      ...(traces ? { tracing: traces.container } : {}),
      modelDir: model.dir,
      config: { dtype: model.dtype, admission: 'on' },
      logger: consoleServerLogger(serverLog),
      host: '127.0.0.1',
      port: 0,
    });
    closers.push(() => container.close());
    return [container];
  }
  const write = serverLog.write ?? ((line: string) => console.error(line));
  // The children read the environment as a container does; the default voice stays the
  // container's own, as in this process, so that KOKORO_VOICE meets the voice check below
  // (with the list of voices) instead of failing each instance's start-up.
  const defaultVoice = configFromEnv({}).defaultVoice;
  const started = await Promise.allSettled(
    Array.from({ length: instances }, async (_, i) => {
      let failure: string | undefined;
      const child = await startServerProcess(
        {
          KOKORO_MODEL_DIR: model.dir,
          KOKORO_DTYPE: model.dtype,
          KOKORO_VOICE: defaultVoice,
          METRICS_INTERVAL_S: '0',
          ...traces?.env,
        },
        {
          onLine: (entry) => {
            const level = typeof entry['level'] === 'number' ? entry['level'] : 0;
            const err = entry['err'] as { message?: unknown } | undefined;
            // A failed start-up is reported once, by npm start, with its reason.
            if (level >= 50 && serverLog.quietWhile())
              failure ??= typeof err?.message === 'string' ? err.message : String(entry['msg']);
            if (level < 40 || serverLog.quietWhile()) return;
            const line = formatServerLogLine(JSON.stringify(entry));
            if (line !== null) write(line.replace(/^kokoro server/, `kokoro server ${i + 1}`));
          },
        },
      ).catch((error: unknown) => {
        throw failure === undefined ? error : new Error(failure, { cause: error });
      });
      return { child, url: child.url, wsUrl: `${child.url.replace(/^http/, 'ws')}${BIDI_PATH}` };
    }),
  );
  for (const result of started) if (result.status === 'fulfilled') closers.push(() => result.value.child.stop());
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return started.map((r) => (r as PromiseFulfilledResult<LocalContainer & { child: unknown }>).value);
}
