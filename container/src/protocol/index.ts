// Public protocol surface: schemas, types and constants shared by the container and its clients.
export * from './messages.ts';
