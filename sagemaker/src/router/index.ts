// Public surface of the local SageMaker runtime router.
export { startLocalSageMakerRouter } from './router.ts';
export type { LocalSageMakerRouter, LocalSageMakerRouterOptions } from './router.ts';
export { createLogger as createRouterLogger } from './log.ts';
export { LOCAL_ACCESS_KEY_ID, LOCAL_SECRET_ACCESS_KEY, LOCAL_CREDENTIALS } from './credentials.ts';
export { EventVerifier, SignatureError, verifyRequest } from './verify.ts';
export type { SignedRequest, VerifiedRequest } from './verify.ts';
