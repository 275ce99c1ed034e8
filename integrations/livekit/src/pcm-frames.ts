// 16-bit mono PCM bytes, as they arrive, cut into LiveKit audio frames of a fixed length (100 ms,
// LiveKit's default frame), the rest carried to the next write; flush() gives the last, shorter one.
// By hand rather than LiveKit's AudioByteStream: that one copies every byte through a JavaScript
// array (a spread), 2 to 13 ms for each 32 KiB message of the container on these machines, which
// lands on the first frame (docs/benchmarks/livekit.md); this copies each byte once.
import { AudioFrame } from '@livekit/rtc-node';

export class PcmFrames {
  readonly #sampleRate: number;
  readonly #frameBytes: number;
  #rest: Uint8Array = new Uint8Array(0);

  constructor(sampleRate: number, samplesPerFrame = Math.floor(sampleRate / 10)) {
    this.#sampleRate = sampleRate;
    this.#frameBytes = samplesPerFrame * 2;
  }

  write(bytes: Uint8Array): AudioFrame[] {
    const all = this.#rest.length === 0 ? bytes : concat(this.#rest, bytes);
    const frames: AudioFrame[] = [];
    let at = 0;
    for (; all.length - at >= this.#frameBytes; at += this.#frameBytes)
      frames.push(this.#frame(all.subarray(at, at + this.#frameBytes)));
    this.#rest = new Uint8Array(all.subarray(at)); // a copy (Buffer's slice() would be a view)
    return frames;
  }

  /** The rest as one frame (none if empty); an odd byte (never sent by the container) is dropped. */
  flush(): AudioFrame[] {
    const rest = this.#rest.subarray(0, this.#rest.length - (this.#rest.length % 2));
    this.#rest = new Uint8Array(0);
    return rest.length === 0 ? [] : [this.#frame(rest)];
  }

  #frame(bytes: Uint8Array): AudioFrame {
    const samples = new Int16Array(bytes.length / 2);
    new Uint8Array(samples.buffer).set(bytes); // little-endian, as the container sends and LiveKit reads
    return new AudioFrame(samples, this.#sampleRate, 1, samples.length);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
