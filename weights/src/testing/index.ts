// Test helpers shared by the weights tests and the model-cache stack's end-to-end tests.
export { startHubStandIn, type HubStandIn, type Fault } from './hub-stand-in.ts';
export { startS3StandIn, type S3StandIn } from './s3-stand-in.ts';
