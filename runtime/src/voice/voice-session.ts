// One voice session of a turn WebSocket (docs/contracts/turn.md, "Voice sessions"): from `listen`
// to `listen_end` or the socket's close, the caller's microphone goes through the VAD and the STT
// (src/stt), the customer's words come back as `transcript` events, and at the end of each of the
// customer's turns (turn-taking.ts) the words become a turn exactly like a typed prompt. Speech
// over the agent that lasts `bargeInMinMs` cuts it (barge-in); shorter sounds and their words are
// dropped. The audio lives only in the frames handed on to the VAD and the STT: it is never
// stored or logged.
import type { SttEvent, SttStream, VadEvent } from '../stt/types.ts';
import { STT_SAMPLE_RATE } from '../stt/types.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { TurnTaking, type CustomerTurn } from './turn-taking.ts';
import { UpstreamAudio } from './upstream-audio.ts';
import type { VoiceOptions } from './voice-options.ts';
import { ArrivalClock } from './arrival-clock.ts';
import { PreemptiveTurn } from './preemptive-turn.ts';
import type { VoiceHost, VoiceSessionSetup, VoiceTurnFacts } from './voice-types.ts';

export type { VoiceEvent, VoiceHost, VoiceSessionSetup, VoiceTurnFacts } from './voice-types.ts';

const ms = (samples: number) => (samples * 1000) / STT_SAMPLE_RATE;
const samples = (milliseconds: number) => Math.round((milliseconds * STT_SAMPLE_RATE) / 1000);

export class VoiceSession {
  readonly #host: VoiceHost;
  readonly #setup: VoiceSessionSetup;
  readonly #o: VoiceOptions;
  readonly #upstream: UpstreamAudio;
  readonly #taking: TurnTaking;
  readonly #arrivals = new ArrivalClock();
  readonly #preempt: PreemptiveTurn;
  #stt: SttStream | null = null;
  /** The session's sample at which the STT stream's audio starts (a stream reopened after a
   *  failure counts its samples from 0; the VAD counts the session's). */
  #sttBase = 0;
  #sttDone: Promise<void> = Promise.resolve();
  /** VAD pushes, one after another; `#queued` samples wait in it. */
  #vadChain: Promise<void> = Promise.resolve();
  #queued = 0;
  /** A refusal already told for the current run of refused frames. */
  #refusing: string | null = null;
  #turns = 0;
  #facts: VoiceTurnFacts | null = null;
  #finalAt = 0;
  /** Onset of speech heard over the agent, until it lasts long enough to cut it. */
  #onset: number | null = null;
  /** Where the last sound too short to cut the agent ended: its words are dropped. */
  #backchannelEnd = -1;
  #lastSpeech = 0;
  #toldNoSpeech = false;
  #fallback: NodeJS.Timeout | undefined;
  #sttWait: NodeJS.Timeout | undefined;
  #ending = false;
  #closed = false;

  constructor(host: VoiceHost, setup: VoiceSessionSetup) {
    this.#host = host;
    this.#setup = setup;
    this.#o = setup.options;
    this.#upstream = new UpstreamAudio(setup.input, {
      maxFrameBytes: setup.maxFrameBytes,
      maxAheadMs: setup.options.maxAheadMs,
    });
    this.#taking = new TurnTaking(samples(setup.options.endOfTurnMs));
    const preempt = setup.options.preemptive ? host.preempt?.bind(host) : undefined;
    this.#preempt = new PreemptiveTurn(preempt);
    this.#vadChain = setup.vad.then(
      () => undefined,
      (error: unknown) => {
        this.#host.send({
          type: 'error',
          code: 'stt_unavailable',
          message: `cannot load the VAD: ${errorMessage(error)}`,
        });
      },
    );
    host.send({ type: 'listening', input: setup.input });
  }

  /** A binary frame of the caller's microphone. */
  audio(frame: Buffer): void {
    if (this.#ending || this.#closed) return;
    const behind = ms(this.#queued);
    if (behind > this.#o.maxAheadMs)
      // The same kind as UpstreamAudio's ahead-of-real-time refusal: one run of audio sent too fast
      // is told once, whichever bound it meets first.
      return this.#refuse(
        'fast',
        'audio_too_fast',
        `the agent is ${Math.round(behind)} ms behind the audio; frames are dropped until it catches up`,
      );
    const pcm = this.#upstream.take(frame);
    if (!(pcm instanceof Int16Array)) return this.#refuse(pcm.kind, pcm.code, pcm.message);
    this.#refusing = null;
    const end = this.#upstream.samples;
    this.#arrivals.note(end, performance.now());
    const start = end - pcm.length;
    const inStep = this.#setup.stt.needsVadCuts;
    if (!inStep) this.#sttStream(start).write(pcm);
    this.#queued += pcm.length;
    this.#vadChain = this.#vadChain.then(() => {
      // An utterance provider keeps only a short pre-roll before the VAD's onset, so it gets the
      // audio in step with the VAD, which lags behind audio sent ahead of real time.
      if (inStep && !this.#closed) this.#sttStream(start).write(pcm);
      return this.#hear(pcm, end);
    });
  }

  /** The page heard the customer over the answer and stopped its playback after `playedMs`. */
  bargeIn(playedMs: number | undefined): void {
    this.#onset = null;
    if (this.#facts) this.#facts.bargeIns++;
    this.#host.cut(playedMs);
  }

  /** `listen_end`: what was heard is answered, then the session ends with a `listen_end` event. */
  async end(): Promise<void> {
    if (this.#ending || this.#closed) return;
    this.#ending = true;
    await this.#vadChain;
    this.#stt?.end();
    const flushed = await Promise.race([
      this.#sttDone.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), this.#o.sttTimeoutMs).unref()),
    ]);
    if (!flushed) this.#sttTimeout();
    if (this.#closed) return;
    const turn = this.#taking.take();
    if (turn) this.#start(turn);
    else if (this.#turns === 0)
      this.#host.send({ type: 'error', code: 'no_speech', message: 'no speech was heard in this voice session' });
    this.#host.send({ type: 'listen_end', turns: this.#turns });
    this.close();
  }

  /** The socket closed (or the session ended): everything stops, nothing more is sent. */
  close(): void {
    this.#closed = true;
    this.#preempt.discard();
    clearTimeout(this.#fallback);
    clearTimeout(this.#sttWait);
    this.#stt?.close();
    this.#stt = null;
    // Once its last push is done (pushes must not overlap).
    void this.#vadChain.then(async () => {
      const vad = (await this.#setup.vad.catch(() => undefined)) as { close?: () => unknown } | undefined;
      await vad?.close?.();
    });
  }

  /** Tells why a frame was refused, once per run of frames refused for the same reason. */
  #refuse(kind: string, code: string, message: string): void {
    if (this.#refusing === kind) return;
    this.#refusing = kind;
    this.#host.send({ type: 'error', code, message });
  }

  /** The STT stream (opened or reopened with its audio starting at session sample `start`). */
  #sttStream(start: number): SttStream {
    if (this.#stt) return this.#stt;
    const stream = this.#setup.stt.open({ language: this.#setup.language, voice: this.#setup.voice });
    this.#stt = stream;
    this.#sttBase = start;
    if (this.#taking.inSpeech) stream.speechStart(0); // reopened mid-utterance
    this.#sttDone = this.#read(stream);
    return stream;
  }

  async #read(stream: SttStream): Promise<void> {
    try {
      for await (const event of stream.events) {
        if (this.#closed || this.#stt !== stream) return;
        this.#heard(event, stream);
      }
    } catch (error) {
      if (this.#stt === stream)
        this.#sttFailed(stream, 'stt_failed', `the speech-to-text failed: ${errorMessage(error)}`);
    }
  }

  #heard(event: SttEvent, stream: SttStream): void {
    clearTimeout(this.#sttWait);
    const endSample = event.type === 'error' ? 0 : event.endSample + this.#sttBase;
    if (event.type === 'error') return this.#sttFailed(stream, event.code, event.message);
    if (event.type === 'partial') {
      if (this.#host.speaking()) return; // not a turn until it cuts the agent
      this.#taking.partial(event.text);
      const allStable = event.stable.trim() === event.text.trim();
      this.#preempt.partial(this.#taking.text, allStable, this.#taking.inSpeech);
      this.#host.send({ type: 'transcript', text: this.#taking.text, final: false });
      return;
    }
    if (this.#host.speaking() || endSample <= this.#backchannelEnd) {
      this.#taking.partial('');
      return;
    }
    this.#taking.final(event.text, endSample);
    this.#preempt.final(this.#taking.text);
    this.#finalAt = performance.now();
    if (event.text.trim() !== '') this.#host.send({ type: 'transcript', text: this.#taking.text, final: false });
    // The VAD's clock, not the arrivals': audio sent ahead of real time is still unheard by the VAD,
    // and a turn ended on it would be cut by its own speech once the VAD hears that.
    this.#clock(this.#upstream.samples - this.#queued);
  }

  #sttFailed(stream: SttStream, code: string, message: string): void {
    stream.close();
    if (this.#stt === stream) this.#stt = null; // the next frame opens a new stream
    this.#host.send({ type: 'error', code, message: `${this.#setup.stt.name}: ${message}` });
  }

  #sttTimeout(): void {
    if (!this.#stt) return;
    this.#sttFailed(
      this.#stt,
      'stt_timeout',
      `no words came ${this.#o.sttTimeoutMs} ms after the customer stopped speaking`,
    );
  }

  async #hear(pcm: Int16Array, end: number): Promise<void> {
    let events: VadEvent[];
    try {
      events = await (await this.#setup.vad).push(pcm);
    } catch (error) {
      events = [];
      this.#refuse('vad', 'stt_failed', `the voice activity detector failed: ${errorMessage(error)}`);
    } finally {
      this.#queued -= pcm.length;
    }
    if (this.#closed) return;
    for (const event of events) {
      if (event.type === 'speech_start') {
        this.#stt?.speechStart(Math.max(0, event.sample - this.#sttBase));
        this.#taking.speechStart();
        this.#toldNoSpeech = false;
        if (this.#host.speaking()) this.#onset = event.sample;
        clearTimeout(this.#fallback);
        this.#fallback = undefined;
      } else {
        this.#stt?.speechEnd(Math.max(0, event.sample - this.#sttBase));
        this.#taking.speechEnd();
        this.#preempt.speechEnd();
        if (this.#onset !== null) this.#backchannelEnd = event.sample; // too short to cut
        this.#onset = null;
        this.#lastSpeech = event.sample;
        if (this.#setup.stt.needsVadCuts || this.#taking.heardWords) this.#waitForStt();
      }
    }
    if (this.#taking.inSpeech) this.#lastSpeech = end;
    this.#clock(end);
  }

  /** The audio clock moved to `end`: barge-in, end of turn, silence. */
  #clock(end: number): void {
    if (this.#closed || this.#ending) return;
    if (this.#onset !== null && this.#host.speaking() && ms(end - this.#onset) >= this.#o.bargeInMinMs) {
      this.#taking.drop(); // words before the cut were over the agent
      this.#preempt.discard();
      this.bargeIn(undefined);
    }
    const turn = this.#taking.due(end);
    if (turn) return this.#start(turn);
    if (this.#taking.armed && this.#fallback === undefined) {
      // A caller that stops sending audio still gets its answer.
      this.#fallback = setTimeout(() => {
        this.#fallback = undefined;
        const late = this.#taking.armed ? this.#taking.take() : null;
        if (late && !this.#closed && !this.#ending) this.#start(late);
      }, this.#o.endOfTurnMs).unref();
    }
    if (!this.#toldNoSpeech && !this.#taking.inSpeech && ms(end - this.#lastSpeech) >= this.#o.noSpeechMs) {
      this.#toldNoSpeech = true;
      this.#host.send({
        type: 'error',
        code: 'no_speech',
        message: `no speech heard in the last ${Math.round(this.#o.noSpeechMs / 1000)} s of audio (is the microphone muted?)`,
      });
    }
  }

  #waitForStt(): void {
    clearTimeout(this.#sttWait);
    this.#sttWait = setTimeout(() => this.#sttTimeout(), this.#o.sttTimeoutMs).unref();
  }

  #start(turn: CustomerTurn): void {
    clearTimeout(this.#fallback);
    this.#fallback = undefined;
    this.#turns++;
    this.#preempt.turn(turn.text); // a held answer for these words is the turn's
    this.#host.send({ type: 'transcript', text: turn.text, final: true });
    const facts = { endOfSpeechAt: this.#arrivals.at(turn.endSample), transcriptAt: this.#finalAt, bargeIns: 0 };
    this.#facts = facts;
    this.#host.turn(turn.text, facts);
  }
}
