// Public surface of the local SageMaker runtime router.
export { startLocalSageMakerRouter } from './router.ts';
export type { LocalSageMakerRouter, LocalSageMakerRouterOptions } from './router.ts';
import { createLogger, type Logger } from '@kokoro-speech/protocol/server';

/** The router's logger (service `sagemaker-local`), for callers that start it in-process. */
export const createRouterLogger = (level: string, destination?: NodeJS.WritableStream): Logger =>
  createLogger('sagemaker-local', level, destination);
export { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY, LOCAL_CREDENTIALS } from './credentials.ts';
export { EventVerifier, SignatureError, verifyRequest } from './verify.ts';
export type { SignedRequest, VerifiedRequest } from './verify.ts';
