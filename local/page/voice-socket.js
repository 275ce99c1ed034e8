// A voice session on the turn WebSocket (docs/contracts/turn.md, "Voice sessions"): `listen` with
// the turn settings and the input format, then the microphone as binary frames; the agent answers
// with `listening`, `transcript` events as the customer speaks, and, at the end of each of the
// customer's turns, a whole turn (start ... done, its audio as binary frames after each
// `sentence`), until `listen_end`. Uses the page's WsClient socket (the same conversation, the same
// sign-in token), so typed and spoken turns share the agent's history.
import { WsTurnFramer } from '/vendor/kokoro-speech/turn-ws-framing.js';

/** The microphone's format, as the session declares it. */
export const VOICE_INPUT = { format: 'pcm_s16le', sample_rate: 16000 };

/** Audio waiting in the socket past this (8 s of it) is not queued further: frames are dropped and counted. */
const MAX_QUEUED_BYTES = 256 * 1024;

/** Errors of the voice session itself (not of a turn): the microphone's audio, the STT, silence. */
const isVoiceError = (code) => /^(stt_|audio_)/.test(code) || code === 'no_speech';

export class VoiceSocket {
  /**
   * Opens the voice session. `on`: {listening(event), transcript(event), turn(event) for a turn's
   * events (audio as {type:'audio', id, seq, pcm}), error(event) outside a turn, ended(event),
   * closed(why)}. Resolves once `listen` is sent.
   */
  static async open(wsClient, sessionId, settings, on) {
    const ws = await wsClient.connect(sessionId);
    return new VoiceSocket(ws, settings, on);
  }

  constructor(ws, settings, on) {
    this.ws = ws;
    this.on = on;
    this.framer = null; // the running turn's (null between turns)
    this.pending = 0; // turns the agent announced (a final transcript) that have not started yet
    this.ending = false; // listen_end came: the session is over once its last turn is
    this.dropped = 0;
    this.sent = 0;
    this.over = false;
    this.done = new Promise((resolve) => (this.settled = resolve));
    this.onMessage = (e) => this.message(e);
    this.onClose = (e) => this.finish(`the WebSocket closed (${e.code}${e.reason ? ` ${e.reason}` : ''})`);
    ws.addEventListener('message', this.onMessage);
    ws.addEventListener('close', this.onClose);
    ws.send(JSON.stringify({ ...settings, type: 'listen', input: VOICE_INPUT }));
  }

  message(e) {
    if (this.over) return;
    if (typeof e.data !== 'string') {
      const at = this.framer?.audio();
      if (at) this.on.turn({ type: 'audio', id: at.id, seq: at.seq, pcm: new Uint8Array(e.data) });
      return;
    }
    const event = JSON.parse(e.data);
    switch (event.type) {
      case 'listening':
        return this.on.listening(event);
      case 'transcript':
        if (event.final) this.pending++;
        return this.on.transcript(event);
      case 'listen_end':
        // It may come ahead of the last turn's events (that turn starts when the session ends).
        this.ending = true;
        this.on.ended(event);
        return this.settle();
      case 'voices':
        return;
      case 'start':
        this.pending = Math.max(0, this.pending - 1);
        this.framer = new WsTurnFramer();
        break;
      case 'error':
        if (isVoiceError(event.code)) return this.on.error(event);
        if (!this.framer) {
          // A turn refused before it started (no start, no done follows).
          if (this.pending > 0) this.pending--;
          this.on.error(event);
          return this.settle();
        }
        break;
    }
    this.on.turn(this.framer ? this.framer.event(event) : event);
    if (event.type === 'done') {
      this.framer = null;
      this.settle();
    }
  }

  /** After listen_end: over once no turn runs or waits to start. */
  settle() {
    if (this.ending && !this.framer && this.pending === 0) this.finish(null);
  }

  /** One frame of the microphone (16 kHz mono s16le); dropped while the socket is backed up. */
  audio(pcm) {
    if (this.over || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > MAX_QUEUED_BYTES) {
      this.dropped++;
      return;
    }
    this.ws.send(pcm);
    this.sent++;
  }

  /** The page stopped the answer's playback after `playedMs` (the worklet's position): the agent cuts there. */
  bargeIn(playedMs) {
    if (this.over || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(playedMs == null ? { type: 'barge_in' } : { type: 'barge_in', played_ms: playedMs }));
    return true;
  }

  /** Ends the session: the agent still answers what it heard, then sends `listen_end`. */
  end() {
    if (this.over || this.ws.readyState !== WebSocket.OPEN) return this.finish(null);
    this.ws.send(JSON.stringify({ type: 'listen_end' }));
  }

  finish(why) {
    if (this.over) return;
    this.over = true;
    this.settled();
    this.ws.removeEventListener('message', this.onMessage);
    this.ws.removeEventListener('close', this.onClose);
    this.on.closed(why);
  }
}
