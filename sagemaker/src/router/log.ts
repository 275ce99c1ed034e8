// The local SageMaker router's logger: the project's one factory (protocol/src/server/logger.ts)
// with this service's name on every line.
import { createLogger as createServiceLogger, type Logger } from '@kokoro-speech/protocol/server';

export type { Logger };

export const createLogger = (level: string, destination?: NodeJS.WritableStream): Logger =>
  createServiceLogger('sagemaker-local', level, destination);
