// Main-thread side of audio playback: one AudioContext at the stream's sample rate, feeding PCM
// chunks to the pcm-player worklet and turning its messages into playback events.

const PREBUFFER_MS = 50;

export class Player {
  constructor() {
    this.ctx = null;
    this.node = null;
    this.setup = null;
    this.sampleRate = 0;
    this.listeners = new Set();
    this.reports = new Map();
    this.flushes = new Map();
    this.nextToken = 1;
    this.lastPosition = null; // { turn, played, time } from the worklet
  }

  /**
   * Samples of `turn` heard by now: the worklet's last position, moved on (or back) to where the
   * output is on the audio clock (see heardAt: the speakers play behind what the worklet has
   * rendered), so that the word highlighted is the one coming out, on the clock the sentences'
   * start and end are shown on. Only while it plays does it run on: an underrun stops the clock for
   * the turn (the next message says so), and the output then only catches up with where it stopped.
   */
  position(turn) {
    const p = this.lastPosition;
    if (!p || p.turn !== turn || !this.ctx) return null;
    const ahead = (this.outputTime() - p.time) * this.sampleRate;
    // Never more than 100 ms ahead of the last message; behind it by the output's latency at most.
    const moved = p.playing ? Math.min(ahead, this.sampleRate * 0.1) : Math.min(ahead, 0);
    return Math.max(0, p.played + moved);
  }

  /** The audio-clock time coming out of the speakers now (the context's time where the browser cannot say). */
  outputTime() {
    const ts = this.ctx?.getOutputTimestamp?.();
    if (ts && ts.performanceTime > 0) return ts.contextTime + (performance.now() - ts.performanceTime) / 1000;
    return this.ctx?.currentTime ?? 0;
  }

  /**
   * Makes sure a context runs at this sample rate (re-created when the rate changes). Creating one
   * can take a second on some systems, so the page calls this once at load (the context then waits,
   * suspended, for the first user gesture) and again on each prompt, which resumes it.
   */
  prepare(sampleRate) {
    if (!this.setup || this.sampleRate !== sampleRate) {
      const previous = this.ctx;
      this.sampleRate = sampleRate;
      this.ctx = new AudioContext({ sampleRate, latencyHint: 'interactive' });
      this.setup = this.ctx.audioWorklet.addModule('/audio-worklet.js').then(() => {
        this.node = new AudioWorkletNode(this.ctx, 'pcm-player', {
          numberOfInputs: 0,
          outputChannelCount: [1],
          processorOptions: { prebufferSamples: Math.round((sampleRate * PREBUFFER_MS) / 1000) },
        });
        this.node.port.onmessage = (e) => this.onMessage(e.data);
        this.node.connect(this.ctx.destination);
      });
      previous?.close();
    }
    return this.setup;
  }

  /** Call from a user gesture (autoplay rules). */
  resume() {
    if (this.ctx && this.ctx.state !== 'running') this.ctx.resume();
  }

  /** Queue PCM s16le samples (an ArrayBuffer, transferred) of sentence `id` of `turn`. */
  push(turn, id, seq, pcm) {
    this.node?.port.postMessage({ type: 'chunk', turn, id, seq, pcm }, [pcm]);
  }

  /** No more audio will come for this turn: play out what is buffered. */
  end(turn) {
    this.node?.port.postMessage({ type: 'end', turn });
  }

  /**
   * Barge-in: silence at once and refuse late chunks of this turn and older ones. Resolves with the
   * samples of `turn` the worklet played (its playback position), or null if it does not answer.
   */
  flush(turn) {
    if (!this.node) return Promise.resolve(0);
    const token = this.nextToken++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.flushes.delete(token);
        resolve(null);
      }, 500);
      this.flushes.set(token, (played) => {
        clearTimeout(timer);
        resolve(played);
      });
      this.node.port.postMessage({ type: 'flush', turn, token });
    });
  }

  /** `fn({type: 'started'|'ended'|'drained'|'stopped', turn, id, at})`; returns an unsubscribe function. */
  on(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** What the worklet received and played (for tests and bug reports). */
  report() {
    if (!this.node) return Promise.resolve(null);
    const token = this.nextToken++;
    return new Promise((resolve) => {
      this.reports.set(token, resolve);
      this.node.port.postMessage({ type: 'report', token });
    });
  }

  /**
   * The page time (performance.now()) at which audio-clock time `time` comes out of the speakers.
   * getOutputTimestamp pairs a moment of the audio clock with its page time at the output. The
   * context's currentTime runs ahead of the output by whole render buffers, so mapping through it
   * put a sound before the audio that made it had even arrived.
   */
  heardAt(time) {
    const ts = this.ctx?.getOutputTimestamp?.();
    if (ts && ts.performanceTime > 0) return ts.performanceTime + (time - ts.contextTime) * 1000;
    const lag = this.ctx ? Math.max(0, (this.ctx.currentTime - time) * 1000) : 0;
    return performance.now() - lag;
  }

  onMessage(msg) {
    if (msg.type === 'flushed') {
      this.flushes.get(msg.token)?.(msg.played);
      this.flushes.delete(msg.token);
      return;
    }
    if (msg.type === 'position') {
      this.lastPosition = msg;
      return;
    }
    if (msg.type === 'report') {
      this.reports.get(msg.token)?.({
        ...msg.stats,
        buffered: msg.buffered,
        playing: msg.playing,
        sampleRate: this.sampleRate,
      });
      this.reports.delete(msg.token);
      return;
    }
    // When it happened on the audio clock, moved onto the page's clock (messages can wait in line).
    const event = { ...msg, at: msg.time === undefined ? performance.now() : this.heardAt(msg.time) };
    for (const fn of this.listeners) fn(event);
  }
}
