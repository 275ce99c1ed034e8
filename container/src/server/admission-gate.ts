// The one admission step of every entry that makes speech (POST /invocations, POST
// /v1/audio/speech, the bidirectional upgrade), taken before any of its input is read so that a
// refusal stays cheap under a flood: admitted, or refused as the protocol's 503 overloaded error
// with Retry-After (each entry answers it in its own shape), logged at debug as `refused` (the
// load benchmarks count these lines by rule).
import type { AdmissionKind, Admitted } from '../admission/index.ts';
import { SpeechError } from '../tts/errors.ts';
import type { SpeechService } from '../tts/speech-service.ts';

export interface Refusal {
  admitted: false;
  /** 503 overloaded, its message naming the rule and figures, Retry-After the rule's. */
  error: SpeechError;
}

/** Admission control's decision on one more `kind` arriving at `route` (the log line's route). */
export function admitOrRefuse(service: SpeechService, kind: AdmissionKind, route: string): Admitted | Refusal {
  const decision = service.admission.admit(kind);
  if (decision.admitted) return decision;
  const { rule, retryAfterS, message } = decision;
  service.log.debug({ route, rule, retryAfterS, err: message }, 'refused');
  return { admitted: false, error: new SpeechError('overloaded', message, retryAfterS) };
}
