// The weight sync's state machine (Amazon States Language), built by a plain function so it can be
// validated (asl-validator) and executed locally (aws-local-stepfunctions) in tests.
//
//   Resolve -> CopyFiles (Map, bounded concurrency: CopyFile per file) -> WriteManifest -> done
//   any failure after retries -> SyncFailed (Fail state carrying the error name and cause)

export interface SyncDefinitionArgs {
  resolveFunctionArn: string;
  copyFunctionArn: string;
  manifestFunctionArn: string;
  /** Files copied at once. Default 8. */
  maxConcurrency?: number;
  /** The Lambdas' own timeouts in seconds. Default resolve 120, copy 900, manifest 120. */
  functionTimeoutSeconds?: Partial<Record<'resolve' | 'copy' | 'manifest', number>>;
}

/**
 * Seconds a Task waits beyond its Lambda's own timeout. The Lambda times out first and its error
 * (retried below) arrives before the Task's own States.Timeout, which no Retry here matches.
 */
export const TASK_TIMEOUT_MARGIN_SECONDS = 60;

/** Lambda service hiccups and throttles (Lambda.TooManyRequestsException): retried with backoff. */
export const LAMBDA_TRANSIENT_ERRORS = [
  'Lambda.ClientExecutionTimeoutException',
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
];

/** Errors our handlers mark retryable (weights/src/errors.ts): Hub 429 and 5xx, broken downloads. */
export const HUB_TRANSIENT_ERRORS = ['HubThrottled', 'HubUnavailable', 'DownloadInterrupted'];

/**
 * A function that ran out of time: Step Functions reports unhandled Lambda errors, timeouts among
 * them, as Lambda.Unknown; newer runtimes name a timeout Sandbox.Timedout. Retried twice: a copy
 * starts its file again, and what was slow (the Hub, the network) often is not the second time.
 */
export const LAMBDA_TIMEOUT_ERRORS = ['Sandbox.Timedout', 'Lambda.Unknown'];

const retry = [
  {
    ErrorEquals: LAMBDA_TRANSIENT_ERRORS,
    IntervalSeconds: 2,
    MaxAttempts: 6,
    BackoffRate: 2,
    MaxDelaySeconds: 60,
    JitterStrategy: 'FULL',
  },
  {
    ErrorEquals: HUB_TRANSIENT_ERRORS,
    IntervalSeconds: 10,
    MaxAttempts: 5,
    BackoffRate: 2,
    MaxDelaySeconds: 120,
    JitterStrategy: 'FULL',
  },
  { ErrorEquals: LAMBDA_TIMEOUT_ERRORS, IntervalSeconds: 5, MaxAttempts: 2, BackoffRate: 2, JitterStrategy: 'FULL' },
];
const catchAll = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'SyncFailed' }];

export function buildSyncDefinition(args: SyncDefinitionArgs): Record<string, unknown> {
  const maxConcurrency = args.maxConcurrency ?? 8;
  const lambdaTimeout = { resolve: 120, copy: 900, manifest: 120, ...args.functionTimeoutSeconds };
  for (const [fn, seconds] of Object.entries(lambdaTimeout)) {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 900)
      throw new Error(`functionTimeoutSeconds.${fn} must be an integer in [1, 900] (Lambda's range), got ${seconds}`);
  }
  const taskTimeout = (fn: keyof typeof lambdaTimeout) => lambdaTimeout[fn] + TASK_TIMEOUT_MARGIN_SECONDS;
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1 || maxConcurrency > 40) {
    throw new Error(`maxConcurrency must be an integer in [1, 40], got ${maxConcurrency}`);
  }
  for (const [field, arn] of Object.entries({
    resolveFunctionArn: args.resolveFunctionArn,
    copyFunctionArn: args.copyFunctionArn,
    manifestFunctionArn: args.manifestFunctionArn,
  })) {
    if (!/^arn:aws[\w-]*:lambda:[\w-]+:\d{12}:function:[\w-]+(:[\w$-]+)?$/.test(arn))
      throw new Error(`${field} must be a Lambda function ARN, got '${arn}'`);
  }
  return {
    Comment: 'Copy one pinned Hugging Face revision into S3, verified, manifest last.',
    StartAt: 'Resolve',
    TimeoutSeconds: 3 * 3600,
    States: {
      Resolve: {
        Type: 'Task',
        Comment: 'Resolve the revision to a commit and list the included files with sizes and digests.',
        Resource: args.resolveFunctionArn,
        TimeoutSeconds: taskTimeout('resolve'),
        Retry: retry,
        Catch: catchAll,
        Next: 'CopyFiles',
      },
      CopyFiles: {
        Type: 'Map',
        Comment: 'Copy each file (streamed, hashed, multipart); files already present and matching are skipped.',
        ItemsPath: '$.files',
        MaxConcurrency: maxConcurrency,
        ItemSelector: {
          'repo.$': '$.repo',
          'commit.$': '$.commit',
          'bucket.$': '$.bucket',
          'keyPrefix.$': '$.keyPrefix',
          'file.$': '$$.Map.Item.Value',
        },
        ItemProcessor: {
          ProcessorConfig: { Mode: 'INLINE' },
          StartAt: 'CopyFile',
          States: {
            CopyFile: {
              Type: 'Task',
              Resource: args.copyFunctionArn,
              TimeoutSeconds: taskTimeout('copy'),
              Retry: retry,
              End: true,
            },
          },
        },
        ResultPath: '$.copied',
        Catch: catchAll,
        Next: 'WriteManifest',
      },
      WriteManifest: {
        Type: 'Task',
        Comment: 'Write manifest.json last: a prefix with a manifest is complete.',
        Resource: args.manifestFunctionArn,
        Parameters: {
          'repo.$': '$.repo',
          'commit.$': '$.commit',
          'bucket.$': '$.bucket',
          'keyPrefix.$': '$.keyPrefix',
          'files.$': '$.copied',
        },
        TimeoutSeconds: taskTimeout('manifest'),
        Retry: retry,
        Catch: catchAll,
        End: true,
      },
      SyncFailed: {
        Type: 'Fail',
        Comment: 'The error name and cause of the step that failed.',
        ErrorPath: '$.error.Error',
        CausePath: '$.error.Cause',
      },
    },
  };
}
