// The microphone for talking to the agent: getUserMedia with the browser's echo cancellation,
// noise suppression and automatic gain on (so that the agent's own voice, coming out of the
// speakers, neither reaches the agent nor cuts the answer), captured by the mic-capture worklet
// as 16 kHz mono s16le frames. Each way it can fail gets a message that says what to do.

/** Why the microphone cannot be had, in words for the page's status. */
export class MicrophoneError extends Error {}

const CONSTRAINTS = {
  audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

/** 40 ms at 16 kHz: see mic-worklet.js. */
export const FRAME_SAMPLES = 640;

function refusal(err) {
  switch (err?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Microphone permission denied: allow this page to use the microphone (the icon in the address bar), then press Talk again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone found: connect one (or enable it in the system settings), then press Talk again.';
    case 'NotReadableError':
    case 'AbortError':
      return `The microphone could not be opened (another program may be using it): ${err.message}`;
    default:
      return `The microphone could not be opened: ${err?.message ?? err}`;
  }
}

/**
 * Opens the microphone; `onFrame(pcm: ArrayBuffer, end: number)` gets each frame (`end`: samples
 * sent so far, the frame's last one included). Resolves with {stream, ctx, close()}.
 */
export async function openMicrophone(onFrame) {
  if (!window.isSecureContext)
    throw new MicrophoneError(
      'Talking needs the microphone, which browsers give only to a secure context (https, or http on localhost): see the notice at the top.',
    );
  if (!navigator.mediaDevices?.getUserMedia)
    throw new MicrophoneError('This browser gives no access to a microphone (navigator.mediaDevices is missing).');
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia(CONSTRAINTS);
  } catch (err) {
    throw new MicrophoneError(refusal(err));
  }
  const ctx = new AudioContext({ latencyHint: 'interactive' });
  try {
    await ctx.audioWorklet.addModule('/mic-worklet.js');
    const node = new AudioWorkletNode(ctx, 'mic-capture', {
      numberOfOutputs: 0,
      processorOptions: { frameSamples: FRAME_SAMPLES },
    });
    node.port.onmessage = (e) => {
      if (e.data.type === 'frame') onFrame(e.data.pcm, e.data.end);
    };
    const source = new MediaStreamAudioSourceNode(ctx, { mediaStream: stream });
    source.connect(node);
    if (ctx.state !== 'running') await ctx.resume();
    const close = async () => {
      node.port.postMessage({ type: 'stop' });
      source.disconnect();
      for (const track of stream.getTracks()) track.stop(); // the browser's microphone indicator goes off
      await ctx.close().catch(() => {});
    };
    return { stream, ctx, close };
  } catch (err) {
    for (const track of stream.getTracks()) track.stop();
    await ctx.close().catch(() => {});
    throw new MicrophoneError(`The microphone could not be captured: ${err.message}`);
  }
}
