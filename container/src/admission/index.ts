// Admission control of new sessions and requests, from the load the server measures.
export { AdmissionController, DEFAULT_ADMISSION } from './admission.ts';
export type {
  AdmissionDecision,
  AdmissionKind,
  AdmissionOptions,
  Admitted,
  Backlog,
  LoadSnapshot,
  LoadSource,
  Refused,
} from './admission.ts';
