// The agent's test doubles other workspaces' tests use (the page's Talk test, the CLI's voice tests):
// the speech-to-text services stood in for at the wire.
export * from './fake-transcription-server.ts';
export * from './fake-transcribe-streaming.ts';
