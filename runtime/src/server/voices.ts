// The voice list the agent offers its callers: what its TTS server says in `ready` (ids, and what
// each voice is where the server says so), read through a short TTS session and kept for a few
// minutes. AgentCore forwards only /invocations and /ws, so callers ask through those
// (WebSocket `{"type":"voices"}`, POST `{"voices": true}`).
import type { VoiceInfo } from '@kokoro-speech/protocol';
import type { TtsTransport } from '../tts/types.ts';

const TTL_MS = 5 * 60_000;

export interface VoiceList {
  voices: VoiceInfo[];
  default: string;
}

export class VoiceCatalog {
  readonly #tts: TtsTransport;
  readonly #defaultVoice: string;
  #cached: { at: number; list: Promise<VoiceList> } | null = null;

  constructor(tts: TtsTransport, defaultVoice: string) {
    this.#tts = tts;
    this.#defaultVoice = defaultVoice;
  }

  list(): Promise<VoiceList> {
    if (this.#cached && Date.now() - this.#cached.at < TTL_MS) return this.#cached.list;
    const list = this.#read();
    this.#cached = { at: Date.now(), list };
    list.catch(() => (this.#cached = null)); // a failure is not kept
    return list;
  }

  async #read(): Promise<VoiceList> {
    const session = await this.#tts.open({}, AbortSignal.timeout(15_000));
    try {
      const ready = await session.ready;
      const info = new Map((ready.voice_info ?? []).map((v) => [v.id, v]));
      // Servers that send ids only: the language from the id's first letter, as kokoro-js does.
      const voices = ready.voices.map(
        (id): VoiceInfo =>
          info.get(id) ?? { id, language: id.startsWith('b') ? 'en-gb' : 'en-us', source: 'model-dir' },
      );
      return { voices, default: this.#defaultVoice };
    } finally {
      session.close();
    }
  }
}
