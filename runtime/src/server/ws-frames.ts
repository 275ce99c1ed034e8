// What a caller's WebSocket sends, within AgentCore's quotas (docs/design/agentcore-contract.md#limits):
// no frame over WS_MAX_FRAME_BYTES and no more than WS_MAX_FRAMES_PER_SECOND a second, bursts
// included (frame-budget.ts). Events wait here while the budget is spent, and what waits is joined
// within the turn contract, so that a fast answer takes fewer frames and none is lost:
// - `text` deltas join into one `text` event (the deltas, concatenated, are the same answer); a
//   delta may join one queued earlier across speech events (sentence, sentence_end, words, audio),
//   which no reader orders text against, never across anything else (tools, start, done);
// - audio joins the queued audio of its sentence (across text and words events only, so that each
//   binary frame still belongs to the earliest open sentence: protocol/src/turn-ws-framing.js), up
//   to the frame limit: PCM cut at whole samples, Opus at whole records (a record never spans two
//   frames), so a frame is always whole samples or whole records.
// The bytes waiting here count as the caller's backlog (caller-flow.ts), so a turn whose frames
// wait slows its TTS stream as it does for a slow reader; each event's write callback fires once
// the frame carrying it is written.
import type WebSocket from 'ws';
import { unpackOpusRecords } from '@kokoro-speech/protocol/opus-framing';
import type { WsFrameLimits } from '../config/defaults.ts';
import { FrameBudget } from './frame-budget.ts';

type Written = (error?: Error | null) => void;
type Item =
  | { kind: 'text'; delta: string; bytes: number; done: Written[] }
  | { kind: 'json'; type: string; json: string; bytes: number; done: Written[] }
  | { kind: 'audio'; sentence: string; chunks: Uint8Array[]; bytes: number; opus: boolean; done: Written[] };

/** `{"type":"text","delta":""}`: a text frame's bytes besides its escaped delta. */
const TEXT_OVERHEAD = 26;
/** Events a text delta may be moved ahead of, and those audio may be moved ahead of. */
const SPEECH = new Set(['sentence', 'sentence_end', 'words']);
const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

export class WsFrames {
  readonly #socket: WebSocket;
  readonly #max: number;
  readonly #budget: FrameBudget;
  readonly #onOversize: (type: string, bytes: number) => void;
  readonly #queue: Item[] = [];
  #queued = 0;
  #timer: NodeJS.Timeout | undefined;
  /** The current turn's audio is Opus records (from its `start` event). */
  #opus = false;
  #closed = false;
  /** Frames sent so far (for tests and the benchmark). */
  sent = 0;

  constructor(socket: WebSocket, limits: WsFrameLimits, onOversize: (type: string, bytes: number) => void) {
    this.#socket = socket;
    this.#max = limits.maxFrameBytes;
    this.#budget = new FrameBudget(limits.maxFramesPerSecond);
    this.#onOversize = onOversize;
  }

  /** Bytes waiting here for the frame budget. */
  get queuedBytes(): number {
    return this.#queued;
  }

  /** Queues an event (`audio`: its bytes as binary frames); `written` fires once it is written. */
  send(event: { type: string; [key: string]: unknown }, written: Written): void {
    if (this.#closed) return written(new Error('socket closed'));
    if (event.type === 'start') this.#opus = event.format === 'opus';
    if (event.type === 'audio') this.#audio(String(event.id), event.data as Uint8Array, written);
    else if (event.type === 'text' && typeof event.delta === 'string') this.#text(event.delta, written);
    else this.#json(event, written);
    if (this.#timer === undefined) this.#pump();
  }

  /** The socket closed: what waits is dropped (its callbacks told). */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    const error = new Error('socket closed');
    for (const item of this.#queue.splice(0)) for (const done of item.done) done(error);
    this.#queued = 0;
  }

  #push(item: Item): void {
    this.#queue.push(item);
    this.#queued += item.bytes;
  }

  /** The queued item `accept` picks, looking back from the newest past the items `pass` allows. */
  #target(accept: (item: Item) => boolean, pass: (item: Item) => boolean): Item | undefined {
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const item = this.#queue[i]!;
      if (accept(item)) return item;
      if (!pass(item)) return undefined;
    }
    return undefined;
  }

  #text(delta: string, written: Written): void {
    const bytes = escapedBytes(delta);
    const room = this.#max - TEXT_OVERHEAD;
    const speech = (item: Item) => item.kind === 'audio' || (item.kind === 'json' && SPEECH.has(item.type));
    const into = this.#target((item) => item.kind === 'text' && item.bytes + bytes <= room, speech);
    if (into?.kind === 'text') {
      into.delta += delta;
      into.bytes += bytes;
      this.#queued += bytes;
      into.done.push(written);
      return;
    }
    const parts = bytes <= room ? [delta] : splitText(delta, room);
    parts.forEach((part, i) =>
      this.#push({
        kind: 'text',
        delta: part,
        bytes: escapedBytes(part),
        done: i === parts.length - 1 ? [written] : [],
      }),
    );
  }

  #json(event: { type: string }, written: Written): void {
    let json = JSON.stringify(event);
    let bytes = Buffer.byteLength(json);
    if (bytes > this.#max) {
      // Nothing the agent sends comes near (a sentence is at most 250 characters): a bug, said clearly.
      this.#onOversize(event.type, bytes);
      json = JSON.stringify({
        type: 'error',
        code: 'internal',
        message: `a ${event.type} event of ${bytes} bytes is over the WebSocket frame limit (WS_MAX_FRAME_BYTES=${this.#max})`,
      });
      bytes = Buffer.byteLength(json);
    }
    this.#push({ kind: 'json', type: event.type, json, bytes, done: [written] });
  }

  #audio(sentence: string, data: Uint8Array, written: Written): void {
    const opus = this.#opus;
    const cuts = opus ? recordEnds(data) : null;
    /** The longest prefix of data[from..] of at most `room` bytes that ends on a sample or record. */
    const fit = (from: number, room: number): number => {
      if (cuts === null) return data.byteLength - from <= room ? data.byteLength : from + Math.floor(room / 2) * 2;
      let end = from;
      for (const cut of cuts) if (cut > from && cut - from <= room) end = cut;
      return end;
    };
    let at = 0;
    const into = this.#target(
      (item) => item.kind === 'audio' && item.sentence === sentence && item.opus === opus,
      (item) => item.kind === 'text' || (item.kind === 'json' && item.type === 'words'),
    );
    if (into?.kind === 'audio') {
      const end = fit(0, this.#max - into.bytes);
      if (end > 0) {
        into.chunks.push(data.subarray(0, end));
        into.bytes += end;
        this.#queued += end;
        at = end;
        if (at === data.byteLength) return void into.done.push(written);
      }
    }
    while (at < data.byteLength) {
      const next = fit(at, this.#max);
      // A record bigger than a frame (not with the framing's 20 ms packets) goes whole rather than broken.
      const end = next > at ? next : (cuts?.find((c) => c > at) ?? data.byteLength);
      const last = end >= data.byteLength;
      this.#push({
        kind: 'audio',
        sentence,
        chunks: [data.subarray(at, end)],
        bytes: end - at,
        opus,
        done: last ? [written] : [],
      });
      at = end;
    }
  }

  /** Sends what the budget allows now; comes back when it allows the next frame. */
  #pump(): void {
    this.#timer = undefined;
    while (this.#queue.length > 0 && !this.#closed) {
      const wait = this.#budget.wait();
      if (wait > 0) {
        this.#timer = setTimeout(() => this.#pump(), wait);
        return;
      }
      this.#budget.take();
      const item = this.#queue.shift()!;
      this.#queued -= item.bytes;
      const callbacks = item.done;
      const onWritten = (error?: Error | null) => {
        for (const done of callbacks) done(error);
      };
      this.sent++;
      if (item.kind === 'audio') {
        const data = item.chunks.length === 1 ? item.chunks[0]! : Buffer.concat(item.chunks);
        this.#socket.send(data, { binary: true }, onWritten);
      } else {
        this.#socket.send(
          item.kind === 'text' ? JSON.stringify({ type: 'text', delta: item.delta }) : item.json,
          onWritten,
        );
      }
    }
  }
}

/** The byte offsets at which the Opus records of a chunk end. */
function recordEnds(chunk: Uint8Array): number[] {
  const ends: number[] = [];
  let at = 0;
  for (const record of unpackOpusRecords(chunk)) {
    at += 6 + record.packet.byteLength;
    ends.push(at);
  }
  return ends;
}

/** `text` in parts whose escaped JSON is at most `room` bytes each, never splitting a code point. */
export function splitText(text: string, room: number): string[] {
  const parts: string[] = [];
  let part = '';
  let bytes = 0;
  for (const ch of text) {
    const n = escapedBytes(ch);
    if (bytes + n > room && part !== '') {
      parts.push(part);
      part = '';
      bytes = 0;
    }
    part += ch;
    bytes += n;
  }
  if (part !== '') parts.push(part);
  return parts;
}
