// What both images use to be observed: EMF metric lines (emf.ts) and OpenTelemetry tracing set up
// from the standard OTEL_* variables (tracing.ts), and the metric names both publish (metric-names.ts).
export * from './emf.ts';
export * from './tracing.ts';
export * from './metric-names.ts';
