// SIGTERM/SIGINT handling for every long-running process of the project. SageMaker and AgentCore
// stop a container with SIGTERM (as `docker stop` does) and kill it after a grace period; Ctrl-C
// sends SIGINT. The first signal closes cleanly and exits 0 (1 when closing failed); a second
// signal while closing exits at once (130) when `onSecondSignal` is given, else is ignored (a
// platform's repeated SIGTERM must not cut a clean shutdown short).
export interface ShutdownOptions {
  /** Closes everything; the process exits when it settles. */
  close(): Promise<void>;
  /** Called with the signal before closing. */
  onSignal?(signal: NodeJS.Signals): void;
  /** Called before exiting 0 (flush logs, say goodbye). */
  onClosed?(): void;
  /** Called before exiting 1. */
  onError?(error: unknown): void;
  /** Given: a second signal while closing calls it, then exits 130 (an impatient Ctrl-C). */
  onSecondSignal?(): void;
  /** For tests: default process.exit. */
  exit?(code: number): void;
}

/** Installs the handlers; returns a function that removes them. */
export function handleShutdownSignals(options: ShutdownOptions): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      if (options.onSecondSignal) {
        options.onSecondSignal();
        exit(130);
      }
      return;
    }
    stopping = true;
    options.onSignal?.(signal);
    options.close().then(
      () => {
        options.onClosed?.();
        exit(0);
      },
      (error: unknown) => {
        options.onError?.(error);
        exit(1);
      },
    );
  };
  const signals = ['SIGTERM', 'SIGINT'] as const;
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
}
