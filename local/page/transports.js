// The two ways the page reaches the agent: a POST answered with Server-Sent Events, and a WebSocket
// (JSON text frames for events, binary frames for audio), at the endpoint agent-endpoint.js gives
// (the local gateway's /api/invocations and /api/ws, or the AgentCore runtime with a token). Both
// deliver the same calls to `on(event)`: the turn events of the contract, with audio as
// {type:'audio', id, pcm}. Both carry the conversation's session id.
import { createParser } from '/vendor/eventsource-parser/index.js';
import { WsTurnFramer } from '/vendor/kokoro-speech/turn-ws-framing.js';

/** A new conversation's id: at least 33 characters, as AgentCore wants. */
export function newSessionId() {
  return `page-${crypto.randomUUID()}`;
}

/** The runtime refused the token (401) even after a refresh: the user must sign in again. */
export class Unauthorized extends Error {}

/** What a refused request says: the agent's {"error": {code, message}}, AgentCore's {"message"}, or its text. */
async function refusal(res) {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    if (body.error?.message) return `${body.error.message}${body.error.code ? ` (${body.error.code})` : ''}`;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: show it as it is
  }
  return text.slice(0, 300);
}

/** POSTs `body` to the endpoint; a 401 is retried once with a refreshed token, then Unauthorized. */
export async function post(endpoint, sessionId, body, signal, accept = 'application/json') {
  for (const refresh of [false, true]) {
    const { url, headers } = await endpoint.invocation(sessionId, { refresh });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, ...headers },
      body: JSON.stringify(body),
      signal,
    });
    if (res.ok && res.body) return res;
    const detail = await refusal(res);
    if (res.status === 401 && endpoint.bearer && !refresh) continue;
    if (res.status === 401 && endpoint.bearer) throw new Unauthorized(detail);
    throw new Error(`the server answered ${res.status}: ${detail}`);
  }
}

/** Why a turn was aborted, with the caller's playback position when known (sent with the cancel). */
export class Interruption extends DOMException {
  constructor(playedMs) {
    super('interrupted', 'AbortError');
    this.playedMs = playedMs;
  }
}

function fromBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** One turn over SSE. Resolves when the stream ends; abort the signal to cancel (barge-in). */
export async function sseTurn(endpoint, request, on, signal, sessionId) {
  const res = await post(endpoint, sessionId, request, signal, 'text/event-stream');
  const parser = createParser({
    onEvent(message) {
      const data = JSON.parse(message.data);
      const type = message.event ?? 'message';
      if (type === 'audio') on({ type, id: data.id, seq: data.seq, pcm: fromBase64(data.data) });
      else on({ ...data, type });
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
}

/**
 * WebSocket turns. A socket is kept for the next turn when this one ended cleanly (several turns
 * per socket, one conversation); after a barge-in it is cancelled (with the playback position) and
 * closed, so no late frame of the old turn can be mistaken for the new one.
 */
export class WsClient {
  constructor(endpoint) {
    this.endpoint = endpoint;
    this.ws = null;
    this.open = null;
    this.connecting = false;
    this.session = null;
  }

  connect(sessionId) {
    if (this.session !== sessionId) this.close();
    if (this.open && (this.connecting || this.ws?.readyState <= WebSocket.OPEN)) return this.open;
    this.session = sessionId;
    this.connecting = true; // until the endpoint (and its token) is known: a second turn waits on it too
    const open = this.endpoint.webSocket(sessionId).then(({ url, protocols }) => {
      if (this.open !== open) throw new Error('the conversation changed');
      const ws = new WebSocket(url, protocols);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      return new Promise((resolve, reject) => {
        ws.addEventListener('open', () => resolve(ws), { once: true });
        // A browser is not told why (a refused token looks like any failure).
        ws.addEventListener('error', () => reject(new Error('WebSocket connection failed')), { once: true });
      });
    });
    this.open = open;
    open.then(
      () => this.open === open && (this.connecting = false),
      () => this.open === open && (this.connecting = false),
    );
    return open;
  }

  /** Drops the socket (a new conversation). */
  close() {
    this.ws?.close();
    this.ws = null;
    this.open = null;
    this.connecting = false;
    this.session = null;
  }

  /**
   * Reports the playback position of the socket's most recent turn after its `done` (the caller
   * stopped it while it still played); false when that socket is gone.
   */
  report(ws, playedMs) {
    if (!ws || ws !== this.ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ type: 'cancel', played_ms: playedMs }));
    return true;
  }

  /** One turn; resolves with its socket at `done`. Abort the signal to cancel: the socket is then dropped. */
  async turn(request, on, signal, sessionId) {
    const ws = await this.connect(sessionId);
    const framer = new WsTurnFramer();
    let started = false;
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        ws.removeEventListener('message', onMessage);
        ws.removeEventListener('close', onClose);
        signal.removeEventListener('abort', onAbort);
      };
      const onMessage = (e) => {
        try {
          if (typeof e.data !== 'string') {
            const at = framer.audio();
            if (at) on({ type: 'audio', id: at.id, seq: at.seq, pcm: new Uint8Array(e.data) });
            return;
          }
          const event = framer.event(JSON.parse(e.data));
          if (event.type === 'start') started = true;
          // An error before `start`: the agent refused the prompt, and no `done` follows (the contract).
          if (event.type === 'error' && !started) {
            cleanup();
            reject(new Error(`the agent refused the prompt: ${event.message} (${event.code})`));
            return;
          }
          on(event);
          if (event.type === 'done') {
            cleanup();
            resolve(ws);
          }
        } catch (err) {
          cleanup();
          reject(err);
        }
      };
      const onClose = (e) => {
        cleanup();
        reject(new Error(`the WebSocket closed (${e.code}${e.reason ? ` ${e.reason}` : ''})`));
      };
      const onAbort = () => {
        cleanup();
        const played = signal.reason?.playedMs;
        if (ws.readyState === WebSocket.OPEN)
          ws.send(JSON.stringify(played == null ? { type: 'cancel' } : { type: 'cancel', played_ms: played }));
        ws.close();
        if (this.ws === ws) this.ws = null;
        reject(signal.reason);
      };
      ws.addEventListener('message', onMessage);
      ws.addEventListener('close', onClose);
      signal.addEventListener('abort', onAbort);
      ws.send(JSON.stringify({ ...request, type: 'prompt' }));
    });
  }
}
