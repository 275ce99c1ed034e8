// AudioWorklet that plays PCM s16le mono as it arrives, gap-free, behind a small jitter buffer.
// Chunks carry (turn, id, seq); a flush (barge-in) drops everything queued at once and refuses any
// later chunk of an older turn, so no stale audio can play. It also keeps a log of what it received
// and played, which the page exposes for tests (window.kokoro.report()).

class PcmPlayer extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const opts = options.processorOptions ?? {};
    this.prebuffer = opts.prebufferSamples ?? 1200; // 50 ms at 24 kHz
    this.queue = []; // { turn, id, seq, data: Float32Array, offset }
    this.buffered = 0;
    this.playing = false;
    this.ended = new Set(); // turns whose audio is complete: play out without waiting to prebuffer
    this.floor = 0; // chunks of turns below this were flushed
    this.current = null; // the chunk being played
    this.stats = { received: [], played: {}, playOrder: [], rejected: 0, underruns: 0, flushes: 0 };
    this.quanta = 0; // render calls since the last position message
    this.port.onmessage = (e) => this.onMessage(e.data);
  }

  /** The logs keep the latest entries only, so a long session does not grow without bound. */
  log(list, entry) {
    if (list.length >= 20000) list.splice(0, 10000);
    list.push(entry);
  }

  onMessage(msg) {
    switch (msg.type) {
      case 'chunk': {
        if (msg.turn < this.floor) {
          this.stats.rejected += 1;
          return;
        }
        const pcm = new Int16Array(msg.pcm);
        const data = new Float32Array(pcm.length);
        for (let i = 0; i < pcm.length; i++) data[i] = pcm[i] / 32768;
        this.queue.push({ turn: msg.turn, id: msg.id, seq: msg.seq, data, offset: 0 });
        this.buffered += data.length;
        this.log(this.stats.received, { turn: msg.turn, id: msg.id, seq: msg.seq, samples: data.length });
        break;
      }
      case 'end':
        this.ended.add(msg.turn);
        break;
      case 'flush': {
        // Barge-in: silence now; refuse anything of this turn or older that is still on its way.
        this.floor = Math.max(this.floor, msg.turn + 1);
        const was = this.current;
        this.queue = [];
        this.buffered = 0;
        this.current = null;
        this.playing = false;
        this.stats.flushes += 1;
        if (was) this.port.postMessage({ type: 'stopped', turn: was.turn, id: was.id, time: currentTime });
        // The playback position of the flushed turn: samples played from its first one (played_ms).
        this.port.postMessage({
          type: 'flushed',
          token: msg.token,
          turn: msg.turn,
          played: this.stats.played[msg.turn] ?? 0,
        });
        break;
      }
      case 'report':
        this.port.postMessage({
          type: 'report',
          token: msg.token,
          stats: this.stats,
          buffered: this.buffered,
          playing: this.playing,
        });
        break;
    }
  }

  process(_inputs, outputs) {
    const out = outputs[0][0];
    let i = 0;
    if (!this.playing && this.queue.length > 0) {
      const head = this.queue[0];
      if (
        this.buffered >= this.prebuffer ||
        this.ended.has(head.turn) ||
        this.queue.some((c) => c.turn !== head.turn)
      ) {
        this.playing = true;
      }
    }
    while (this.playing && i < out.length) {
      const chunk = this.queue[0];
      if (!chunk) {
        // Ran dry before the turn's audio was complete: an underrun. Re-buffer before resuming.
        if (this.current && !this.ended.has(this.current.turn)) this.stats.underruns += 1;
        if (this.current) {
          const turn = this.current.turn;
          const time = currentTime + i / sampleRate;
          this.port.postMessage({ type: 'drained', turn, id: this.current.id, time });
          this.port.postMessage({ type: 'position', turn, played: this.stats.played[turn] ?? 0, time, playing: false });
        }
        this.current = null;
        this.playing = false;
        break;
      }
      if (chunk !== this.current) {
        if (!this.current || this.current.id !== chunk.id || this.current.turn !== chunk.turn) {
          const time = currentTime + i / sampleRate; // audio clock: the main thread may read this late
          if (this.current)
            this.port.postMessage({ type: 'ended', turn: this.current.turn, id: this.current.id, time });
          this.port.postMessage({ type: 'started', turn: chunk.turn, id: chunk.id, time });
        }
        this.current = chunk;
        this.log(this.stats.playOrder, [chunk.turn, chunk.id, chunk.seq]);
      }
      const n = Math.min(out.length - i, chunk.data.length - chunk.offset);
      out.set(chunk.data.subarray(chunk.offset, chunk.offset + n), i);
      chunk.offset += n;
      i += n;
      this.buffered -= n;
      this.stats.played[chunk.turn] = (this.stats.played[chunk.turn] ?? 0) + n;
      if (chunk.offset === chunk.data.length) this.queue.shift();
    }
    out.fill(0, i);
    for (let c = 1; c < outputs[0].length; c++) outputs[0][c].set(out);
    // The playback position (samples of the turn played, on the audio clock), about 20 times a
    // second while playing: the page highlights the word being spoken from it, not from arrival.
    if (this.current && ++this.quanta >= 8) {
      this.quanta = 0;
      const turn = this.current.turn;
      const time = currentTime + i / sampleRate;
      this.port.postMessage({ type: 'position', turn, played: this.stats.played[turn] ?? 0, time, playing: true });
    }
    return true;
  }
}

registerProcessor('pcm-player', PcmPlayer);
