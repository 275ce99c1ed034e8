// AudioWorklet that turns the microphone into what a voice session takes (docs/contracts/turn.md,
// "Voice sessions"): 16 kHz mono signed 16-bit little-endian PCM, posted in frames of
// `frameSamples` (40 ms: 1,280 bytes, far under the 32 KB frame limit, 25 frames a second). The
// context runs at the device's rate (48 kHz mostly): each output sample is the mean of the input
// samples around its position, a box filter that keeps most of what lies above 8 kHz out of the
// 16 kHz stream. Hand-written: a fixed-ratio decimator is a few lines, and the browser's own
// resampling (an AudioContext at 16 kHz) is refused by some browsers for a microphone at another rate.

const OUT_RATE = 16000;

class MicCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.frameSamples = options.processorOptions?.frameSamples ?? 640;
    this.step = sampleRate / OUT_RATE; // input samples per output sample
    this.pos = 0; // where the next output sample sits, in input samples from the start of `carry`
    this.carry = new Float32Array(0); // input not yet used (the filter reaches past a block's end)
    this.frame = new Int16Array(this.frameSamples);
    this.filled = 0;
    this.sent = 0; // samples sent so far (the session's audio clock)
    this.running = true;
    this.port.onmessage = (e) => {
      if (e.data?.type === 'stop') this.running = false;
    };
  }

  process(inputs) {
    if (!this.running) return false;
    const channels = inputs[0];
    if (!channels || channels.length === 0) return true; // no input connected yet
    // Mono: the mean of the channels (a mono microphone has one).
    const block = new Float32Array(channels[0].length);
    for (const channel of channels) for (let i = 0; i < block.length; i++) block[i] += channel[i] / channels.length;
    const input = new Float32Array(this.carry.length + block.length);
    input.set(this.carry);
    input.set(block, this.carry.length);
    const half = this.step / 2;
    while (this.pos + half <= input.length) {
      const from = Math.max(0, Math.floor(this.pos - half));
      const to = Math.min(input.length, Math.ceil(this.pos + half));
      let sum = 0;
      for (let i = from; i < to; i++) sum += input[i];
      const value = sum / Math.max(1, to - from);
      this.frame[this.filled++] = Math.max(-32768, Math.min(32767, Math.round(value * 32768)));
      if (this.filled === this.frameSamples) this.flush();
      this.pos += this.step;
    }
    const keep = Math.max(0, Math.floor(this.pos - half));
    this.carry = input.slice(keep);
    this.pos -= keep;
    return true;
  }

  flush() {
    // Little-endian on every platform a browser runs on; the frame goes as its own buffer (transferred).
    const pcm = this.frame.slice(0, this.filled);
    this.sent += this.filled;
    this.filled = 0;
    this.port.postMessage({ type: 'frame', pcm: pcm.buffer, end: this.sent, time: currentTime }, [pcm.buffer]);
  }
}

registerProcessor('mic-capture', MicCapture);
