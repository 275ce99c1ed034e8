// A local Amazon Transcribe streaming endpoint at the wire, for tests: HTTP/2 cleartext on
// loopback, POST /stream-transcription as the service model defines it. The request's SigV4
// (signing name transcribe) and every AudioEvent's chained signature are checked with the local
// SageMaker router's verifier; the AudioEvents are decoded and counted; TranscriptEvents are
// answered from the test's script as the audio arrives (a step fires once its time of audio has
// come in); exceptions go as AWS sends them: an error answer (x-amzn-errortype, JSON) before the
// stream, an exception event in it. Point the official client here with
// AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING. Documented versus inferred: docs/design/voice-in.md.
import { createServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { fromUtf8 } from '@smithy/util-utf8';
import { codec, encodeException, readMessages } from '@kokoro-speech/sagemaker';
import { EventVerifier, LOCAL_CREDENTIALS, SignatureError, verifyRequest } from '@kokoro-speech/sagemaker/router';
import { transcriptResult } from './fake-transcribe-results.ts';

export type TranscribeStep =
  /** Words so far of the current utterance; the first `stableWords` marked Stable (when stabilisation is on). */
  | { atSeconds: number; partial: string; stableWords?: number }
  /** The utterance's final words. */
  | { atSeconds: number; final: string }
  /** An exception event (LimitExceededException, ServiceUnavailableException, ...); the stream ends. */
  | { atSeconds: number; exception: string; message: string };

export interface TranscribeScript {
  steps?: TranscribeStep[];
  /** Answer the request itself with this error instead of a stream. */
  refuse?: { status: number; type: string; message: string };
}

export interface TranscribeStreamRecord {
  headers: IncomingHttpHeaders;
  /** AudioEvents whose signature checked out (the empty end-of-stream event not counted). */
  audioEvents: number;
  audioBytes: number;
  /** True once the signed empty event that ends the audio arrived. */
  ended: boolean;
}

export interface FakeTranscribeStreaming {
  /** For AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING: http://127.0.0.1:PORT */
  url: string;
  streams: TranscribeStreamRecord[];
  /** Streams open now. */
  readonly open: number;
  close(): Promise<void>;
}

export interface FakeTranscribeOptions {
  /** Concurrent streams before LimitExceededException (default 5, AWS's default quota). */
  maxStreams?: number;
  /** The script of each new stream (called with its index). */
  script: (index: number) => TranscribeScript;
}

const CODES = new Set(['en-US', 'en-GB', 'es-US', 'fr-FR', 'hi-IN', 'it-IT', 'pt-BR', 'ja-JP', 'zh-CN']);
const str = (value: string) => ({ type: 'string' as const, value });

function sendError(stream: ServerHttp2Stream, status: number, type: string, message: string): void {
  if (stream.closed || stream.headersSent) return void stream.close();
  stream.respond({ ':status': status, 'content-type': 'application/json', 'x-amzn-errortype': type });
  stream.end(JSON.stringify({ Message: message }));
}

/** Why the request's parameters would be refused (a BadRequestException), or null. */
function badRequest(headers: IncomingHttpHeaders): string | null {
  const code = String(headers['x-amzn-transcribe-language-code'] ?? '');
  if (!CODES.has(code)) return `unsupported or missing language code ${JSON.stringify(code)}`;
  if (headers['x-amzn-transcribe-media-encoding'] !== 'pcm') return 'this stand-in takes MediaEncoding pcm only';
  const rate = Number(headers['x-amzn-transcribe-sample-rate']);
  if (!(rate >= 8000 && rate <= 48000)) return `MediaSampleRateHertz must be 8000-48000, got ${rate}`;
  if (headers['content-type'] !== 'application/vnd.amazon.eventstream') return 'the body must be an event stream';
  return null;
}

export async function startFakeTranscribeStreaming(options: FakeTranscribeOptions): Promise<FakeTranscribeStreaming> {
  const maxStreams = options.maxStreams ?? 5;
  const streams: TranscribeStreamRecord[] = [];
  let open = 0;
  const server: Http2Server = createServer();
  server.on('stream', (stream, headers) => {
    void serve(stream, headers).catch((error: Error) => sendError(stream, 400, 'BadRequestException', error.message));
  });

  async function serve(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): Promise<void> {
    if (headers[':method'] !== 'POST' || headers[':path'] !== '/stream-transcription')
      return sendError(
        stream,
        404,
        'UnknownOperationException',
        `no operation ${headers[':method']} ${headers[':path']}`,
      );
    let verified;
    try {
      verified = await verifyRequest(
        { method: 'POST', path: '/stream-transcription', headers, streaming: true },
        [LOCAL_CREDENTIALS],
        Date.now(),
        'transcribe',
      );
    } catch (error) {
      if (error instanceof SignatureError) return sendError(stream, 403, error.code, error.message);
      throw error;
    }
    const problem = badRequest(headers);
    if (problem) return sendError(stream, 400, 'BadRequestException', problem);
    const index = streams.length;
    const script = options.script(index);
    if (script.refuse) return sendError(stream, script.refuse.status, script.refuse.type, script.refuse.message);
    if (open >= maxStreams)
      return sendError(
        stream,
        429,
        'LimitExceededException',
        `You have reached your limit of ${maxStreams} concurrent streams.`,
      );
    const record: TranscribeStreamRecord = { headers, audioEvents: 0, audioBytes: 0, ended: false };
    streams.push(record);
    open++;
    stream.once('close', () => open--);
    stream.respond({
      ':status': 200,
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-request-id': randomUUID(),
      'x-amzn-transcribe-session-id': randomUUID(),
      'x-amzn-transcribe-language-code': String(headers['x-amzn-transcribe-language-code']),
      'x-amzn-transcribe-sample-rate': String(headers['x-amzn-transcribe-sample-rate']),
      'x-amzn-transcribe-media-encoding': 'pcm',
    });
    const rate = Number(headers['x-amzn-transcribe-sample-rate']);
    const stabilised = headers['x-amzn-transcribe-enable-partial-results-stabilization'] === 'true';
    const steps = [...(script.steps ?? [])].sort((a, b) => a.atSeconds - b.atSeconds);
    let utteranceStart = 0;
    let resultId = randomUUID();
    /** Sends the steps due by `seconds` of audio; false once an exception ended the stream. */
    const sendDue = (seconds: number): boolean => {
      while (steps.length > 0 && steps[0]!.atSeconds <= seconds) {
        const step = steps.shift()!;
        if ('exception' in step) {
          stream.end(encodeException(step.exception, { Message: step.message }));
          return false;
        }
        const final = 'final' in step;
        const result = transcriptResult({
          id: resultId,
          text: final ? step.final : step.partial,
          start: utteranceStart,
          end: step.atSeconds,
          partial: !final,
          stableWords: !final && stabilised ? (step.stableWords ?? 0) : undefined,
        });
        const body = fromUtf8(JSON.stringify({ Transcript: { Results: [result] } }));
        stream.write(
          codec.encode({
            headers: {
              ':message-type': str('event'),
              ':event-type': str('TranscriptEvent'),
              ':content-type': str('application/json'),
            },
            body,
          }),
        );
        if (final) ((utteranceStart = step.atSeconds), (resultId = randomUUID()));
      }
      return true;
    };

    const verifier = new EventVerifier(verified);
    try {
      for await (const outer of readMessages(stream)) {
        const inner = await verifier.verify(outer);
        if (inner.length === 0) {
          record.ended = true;
          break;
        }
        const event = codec.decode(inner);
        const type = event.headers[':event-type'];
        if (type?.type !== 'string' || type.value !== 'AudioEvent')
          return sendError(stream, 400, 'BadRequestException', 'expected an AudioEvent');
        record.audioEvents++;
        record.audioBytes += event.body.length;
        if (!sendDue(record.audioBytes / 2 / rate)) return;
      }
    } catch (error) {
      // Mid-stream, a bad signature ends the stream with an exception event, as AWS does.
      if (error instanceof SignatureError && !stream.closed)
        return void stream.end(encodeException(error.code, { Message: error.message }));
      throw error;
    }
    if (sendDue(Infinity) && !stream.closed) stream.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<import('node:http2').ServerHttp2Session>();
  server.on('session', (session) => (sessions.add(session), session.once('close', () => sessions.delete(session))));
  return {
    url: `http://127.0.0.1:${port}`,
    streams,
    get open() {
      return open;
    },
    close: async () => {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
