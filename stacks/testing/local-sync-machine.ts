// The weight sync state machine run on this machine: its real definition executed by
// aws-local-stepfunctions with the real Lambda handlers as its task handlers (a wrapper may stand
// in front of one to inject faults), retries waiting 1 ms, the execution's events kept.
import { StateMachine } from 'aws-local-stepfunctions';
import { buildSyncDefinition } from '../model-cache/definition.ts';
import { handler as copyHandler } from '../model-cache/handlers/copy.ts';
import { handler as manifestHandler } from '../model-cache/handlers/manifest.ts';
import { handler as resolveHandler } from '../model-cache/handlers/resolve.ts';

type Task = 'Resolve' | 'CopyFile' | 'WriteManifest';

export interface ExecuteOptions {
  /** Stands in front of a task's real handler (given as `real`), e.g. to throw a Lambda throttle first. */
  wrap?: Partial<Record<Task, (input: any, real: (input: any) => Promise<any>) => Promise<any>>>;
}

export function localSyncMachine() {
  const arn = (name: string) => `arn:aws:lambda:us-east-1:123456789012:function:kokoro-${name}`;
  const machine = new StateMachine(
    buildSyncDefinition({
      resolveFunctionArn: arn('resolve'),
      copyFunctionArn: arn('copy'),
      manifestFunctionArn: arn('manifest'),
      maxConcurrency: 3,
    }) as any,
  );
  let lastEvents: any[] = [];
  return {
    /** Runs one execution; resolves to its output or rejects with the execution's error. */
    async execute(input: Record<string, unknown>, options: ExecuteOptions = {}) {
      const real = { Resolve: resolveHandler, CopyFile: copyHandler, WriteManifest: manifestHandler };
      const handlers = Object.fromEntries(
        Object.entries(real).map(([task, handler]) => {
          const wrapper = options.wrap?.[task as Task];
          return [task, wrapper ? (input: any) => wrapper(input, handler as (input: any) => Promise<any>) : handler];
        }),
      );
      const execution = machine.run(input as any, {
        overrides: {
          taskResourceLocalHandlers: handlers as any,
          retryIntervalOverrides: { Resolve: 1, CopyFile: 1, WriteManifest: 1 },
        },
      });
      const events: any[] = [];
      const collecting = (async () => {
        for await (const event of execution.eventLogs) events.push(event);
      })();
      try {
        return (await execution.result) as any;
      } finally {
        await collecting.catch(() => {});
        lastEvents = events;
      }
    },
    /** The last execution's events. */
    events: () => lastEvents,
    /** How often the last execution retried `state`. */
    retried: (state: Task) => lastEvents.filter((e) => e.type === 'StateRetried' && e.state?.name === state).length,
  };
}
