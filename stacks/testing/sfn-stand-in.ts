// Test helper: a local Step Functions endpoint (the AWS JSON 1.0 wire protocol the SDK speaks) that
// answers StartExecution and DescribeExecution by running executions through a given function,
// e.g. the real definition in aws-local-stepfunctions. Only what SyncExecution calls is served.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Execution {
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

export interface SfnStandIn {
  endpoint: string;
  /** Execution ARN -> state, in start order. */
  executions: Map<string, Execution>;
  close(): Promise<void>;
}

/** `run` resolves to the execution's output, or rejects with an error whose name and message become error and cause. */
export async function startSfnStandIn(run: (input: unknown) => Promise<unknown>): Promise<SfnStandIn> {
  const executions = new Map<string, Execution>();
  const reply = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.parse(Buffer.concat(await req.toArray()).toString() || '{}');
    const target = String(req.headers['x-amz-target']);
    if (target === 'AWSStepFunctions.StartExecution') {
      const executionArn = `${String(body.stateMachineArn).replace(':stateMachine:', ':execution:')}:${body.name}`;
      if (executions.has(executionArn))
        return reply(res, 400, {
          __type: 'ExecutionAlreadyExists',
          message: `Execution Already Exists: '${executionArn}'`,
        });
      const execution: Execution = { status: 'RUNNING', input: body.input };
      executions.set(executionArn, execution);
      run(JSON.parse(body.input)).then(
        (output) => Object.assign(execution, { status: 'SUCCEEDED', output: JSON.stringify(output) }),
        (error: Error) => Object.assign(execution, { status: 'FAILED', error: error.name, cause: error.message }),
      );
      return reply(res, 200, { executionArn, startDate: Date.now() / 1000 });
    }
    if (target === 'AWSStepFunctions.DescribeExecution') {
      const execution = executions.get(body.executionArn);
      if (!execution)
        return reply(res, 400, {
          __type: 'ExecutionDoesNotExist',
          message: `Execution Does Not Exist: '${body.executionArn}'`,
        });
      return reply(res, 200, {
        ...execution,
        executionArn: body.executionArn,
        stateMachineArn: 'x',
        startDate: Date.now() / 1000,
      });
    }
    reply(res, 400, { __type: 'UnknownOperationException', message: target });
  };

  const server = createServer(
    (req, res) =>
      void handle(req, res).catch((error) => reply(res, 500, { __type: 'InternalError', message: String(error) })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    executions,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
