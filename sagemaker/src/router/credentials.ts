// The fixed credentials the local router accepts (it is a loopback test double, not a secret store).
import type { AwsCredentialIdentity } from '@smithy/types';

export const LOCAL_ACCESS_KEY_ID = 'LOCALKOKORO';
export const LOCAL_SECRET_ACCESS_KEY = 'local-kokoro-secret-key-for-loopback-only';
export const LOCAL_CREDENTIALS: AwsCredentialIdentity = {
  accessKeyId: LOCAL_ACCESS_KEY_ID,
  secretAccessKey: LOCAL_SECRET_ACCESS_KEY,
};
