// Where the microphone's level rises after a quiet stretch, on the page's clock: a yardstick for
// the barge-in benchmark and test (how long after the customer's speech began did playback stop),
// not a voice detector (barge-in-vad.js is). A frame's samples arrive together, so the onset is
// placed back from the frame's arrival by the samples that follow it.

const RATE = 16000;
/** Louder than this (of full scale, about -40 dBFS) counts as sound. */
const LEVEL = 0.01 * 32768;
/** Quiet for this long (400 ms) before a rise counts as a new onset. */
const QUIET_SAMPLES = 6400;

export class LoudOnsets {
  constructor(onOnset) {
    this.onOnset = onOnset;
    this.quiet = QUIET_SAMPLES; // the start counts as after a quiet stretch
  }

  /** A captured frame (Int16Array) whose last sample is sample `end` of the stream. */
  frame(pcm, end) {
    const arrived = performance.now();
    for (let i = 0; i < pcm.length; i++) {
      if (Math.abs(pcm[i]) < LEVEL) {
        this.quiet++;
        continue;
      }
      if (this.quiet >= QUIET_SAMPLES)
        this.onOnset({ at: arrived - ((pcm.length - i) * 1000) / RATE, sample: end - pcm.length + i });
      this.quiet = 0;
    }
  }
}
