// One WebSocket session of protocol v1: config/text/cancel/end in, ready/audio/cancelled/error/done out.
import type { WebSocket } from 'ws';
import {
  AUDIO_FORMATS,
  MAX_AUDIO_FRAME_BYTES,
  PROTOCOL_VERSION,
  type ServerMessage,
  type TextMessage,
} from '@kokoro-speech/protocol';
import { effectiveSampleRate } from '../audio/index.ts';
import { MessageError, parseClientMessage } from './client-message.ts';
import { SpeechError, asSpeechError } from '../tts/errors.ts';
import type { Settings, SpeechService } from '../tts/speech-service.ts';
import { UtteranceStream, type UtteranceSink } from '../tts/utterance-stream.ts';
import type { Admitted } from '../admission/index.ts';

export class BidiSession {
  readonly id: string;
  readonly #ws: WebSocket;
  readonly #service: SpeechService;
  readonly #stream: UtteranceStream;
  #settings: Settings;
  #ended = false;
  #doneSent = false;
  /** The client asked for `words` messages (config `words: true`). */
  #words = false;
  readonly #openedAt = performance.now();
  readonly #stats = { texts: 0, utterances: 0, cancelled: 0, errors: 0, audioMs: 0, bytes: 0, firstAudioMs: -1 };
  #firstTextAt = -1;
  /** Resolves when the socket has closed and the session's work is released. */
  readonly closed: Promise<void>;

  readonly #admission: Admitted | undefined;

  constructor(ws: WebSocket, service: SpeechService, id: string, admission?: Admitted) {
    this.id = id;
    this.#admission = admission;
    this.#ws = ws;
    this.#service = service;
    this.#settings = service.defaultSettings();
    this.#stream = new UtteranceStream(service, this.#sink());
    ws.on('message', (data, isBinary) => this.#onMessage(toBuffer(data), isBinary));
    ws.on('error', (error) => service.log.warn({ session: id, err: error.message }, 'websocket error'));
    this.closed = new Promise((resolve) => ws.once('close', (code) => resolve(this.#onClose(code))));
    this.#send({
      type: 'ready',
      protocol: PROTOCOL_VERSION,
      sample_rate: effectiveSampleRate(this.#settings.format, this.#settings.sampleRate),
      format: this.#settings.format,
      voices: [...service.engine.voices],
      ...(service.engine.voiceInfo ? { voice_info: [...service.engine.voiceInfo] } : {}),
      word_timings: service.engine.wordTimings ?? 'estimate',
      ssml: true,
      tracing: true,
      formats: [...AUDIO_FORMATS],
    });
  }

  /** Shutdown: drop what is left and close with 1001 (going away). */
  terminate(): void {
    this.#stream.close();
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.close(1001, 'server shutting down');
  }

  get pending(): number {
    return this.#stream.pending;
  }

  #sink(): UtteranceSink {
    return {
      start: (u) => {
        if (this.#stats.firstAudioMs < 0) this.#stats.firstAudioMs = performance.now() - this.#firstTextAt;
        this.#send({ type: 'audio_start', id: u.id, index: u.index });
      },
      audio: (_u, bytes) => {
        this.#stats.bytes += bytes.length;
        for (let at = 0; at < bytes.length; at += MAX_AUDIO_FRAME_BYTES) {
          this.#ws.send(bytes.subarray(at, at + MAX_AUDIO_FRAME_BYTES), { binary: true });
        }
        // A client that stops reading would make us hold all its queued audio in memory.
        if (this.#ws.bufferedAmount > this.#service.config.maxWsBufferedBytes) {
          this.#service.log.warn(
            { session: this.id, bufferedBytes: this.#ws.bufferedAmount },
            'client is not reading its audio; dropping the session',
          );
          this.#stream.close();
          this.#ws.terminate();
        }
      },
      words: (u, words, estimated) => {
        if (this.#words) this.#send({ type: 'words', id: u.id, index: u.index, words, estimated });
      },
      end: (u, s) => {
        this.#service.spans?.record(u, s.marks, { stats: s });
        this.#stats.utterances++;
        this.#stats.audioMs += s.durationMs;
        this.#send({
          type: 'audio_end',
          id: u.id,
          index: u.index,
          samples: s.samples,
          duration_ms: round(s.durationMs),
          synthesis_ms: round(s.synthesisMs),
          queue_ms: round(s.queueMs),
        });
        this.#maybeDone();
      },
      fail: (u, error, marks) => {
        if (marks) this.#service.spans?.record(u, marks, { error: `${error.code}: ${error.message}` });
        this.#error(u.id, error);
        this.#maybeDone();
      },
    };
  }

  #onMessage(data: Buffer, _isBinary: boolean): void {
    try {
      const message = parseClientMessage(data, this.#service.config.maxWsMessageBytes);
      switch (message.type) {
        case 'config':
          this.#settings = this.#service.applySettings(this.#settings, message);
          if (message.words !== undefined) this.#words = message.words;
          return;
        case 'text':
          return this.#onText(message);
        case 'cancel': {
          const ids = this.#stream.cancel();
          this.#stats.cancelled += ids.length;
          this.#send({ type: 'cancelled', ids });
          this.#maybeDone();
          return;
        }
        case 'end':
          this.#ended = true;
          this.#maybeDone();
          return;
      }
    } catch (error) {
      this.#error(error instanceof MessageError ? error.id : null, asSpeechError(error));
    }
  }

  #onText(message: TextMessage): void {
    const id = message.id ?? null;
    let spoken;
    try {
      if (this.#ended) throw new SpeechError('invalid_message', 'text after end: this session takes no more text');
      this.#service.checkText(message.text);
      this.#service.checkSpoken(this.#settings.voice); // before any work: the same rule as every route
      if (this.#stream.pending >= this.#service.config.maxQueuedPerSession) {
        throw new SpeechError(
          'overloaded',
          `this session has ${this.#stream.pending} utterances queued (MAX_QUEUED_PER_SESSION=${this.#service.config.maxQueuedPerSession})`,
        );
      }
      this.#service.admit();
      spoken = this.#service.spoken(message.text, message.ssml ?? false);
    } catch (error) {
      this.#error(id, asSpeechError(error));
      return;
    }
    if (this.#firstTextAt < 0) this.#firstTextAt = performance.now();
    this.#stats.texts++;
    this.#stream.push(spoken, message.id, this.#settings, message.traceparent);
    this.#admission?.speaking();
  }

  #maybeDone(): void {
    if (this.#ended && !this.#doneSent && this.#stream.pending === 0) {
      this.#doneSent = true;
      this.#send({ type: 'done' });
    }
  }

  #error(id: string | null, error: SpeechError): void {
    this.#stats.errors++;
    this.#send({ type: 'error', id, code: error.code, message: error.message });
  }

  #send(message: ServerMessage): void {
    if (this.#ws.readyState === this.#ws.OPEN) this.#ws.send(JSON.stringify(message));
  }

  #onClose(code: number): void {
    const dropped = this.#stream.close();
    this.#service.log.info(
      {
        session: this.id,
        closeCode: code,
        durationMs: round(performance.now() - this.#openedAt),
        firstAudioMs: this.#stats.firstAudioMs < 0 ? null : round(this.#stats.firstAudioMs),
        texts: this.#stats.texts,
        utterances: this.#stats.utterances,
        cancelled: this.#stats.cancelled,
        droppedOnClose: dropped.length,
        errors: this.#stats.errors,
        audioMs: round(this.#stats.audioMs),
        bytes: this.#stats.bytes,
      },
      'session closed',
    );
  }
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

const round = (ms: number) => Math.round(ms * 10) / 10;
