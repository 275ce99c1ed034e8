// SigV4 for SageMaker runtime calls: a signer on node:crypto hashing.
import { Sha256 } from '@smithy/core/checksum';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';

export const SIGNING_SERVICE = 'sagemaker';

/** `service`: another AWS service's signing name (the Transcribe streaming stand-in: transcribe). */
export function createSigner(
  credentials: AwsCredentialIdentity,
  region: string,
  service = SIGNING_SERVICE,
): SignatureV4 {
  return new SignatureV4({ service, region, credentials, sha256: Sha256 });
}
