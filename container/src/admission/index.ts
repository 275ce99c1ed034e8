// Admission control of new sessions and requests, from the load the server measures.
export { AdmissionController } from './admission-controller.ts';
export { DEFAULT_ADMISSION, type AdmissionOptions } from './options.ts';
export type {
  AdmissionDecision,
  AdmissionKind,
  Admitted,
  Backlog,
  LoadSnapshot,
  LoadSource,
  Refused,
} from './load-source.ts';
