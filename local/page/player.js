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
   * Samples of `turn` played by now: the worklet's last position, moved on by the audio clock
   * since (only while it plays: an underrun stops the clock for the turn, and the next message says so).
   */
  position(turn) {
    const p = this.lastPosition;
    if (!p || p.turn !== turn || !this.ctx) return null;
    if (!p.playing) return p.played;
    const ahead = Math.max(0, (this.ctx.currentTime - p.time) * this.sampleRate);
    return p.played + Math.min(ahead, this.sampleRate * 0.1); // never guess more than 100 ms ahead
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
    const lag = this.ctx && msg.time !== undefined ? Math.max(0, (this.ctx.currentTime - msg.time) * 1000) : 0;
    const event = { ...msg, at: performance.now() - lag };
    for (const fn of this.listeners) fn(event);
  }
}
