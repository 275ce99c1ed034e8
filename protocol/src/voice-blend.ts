// Weighted voice blends in Kokoro-FastAPI's syntax, accepted wherever a voice is: `af_bella(2)+af_sky(1)`
// speaks with the style vector 2/3 af_bella + 1/3 af_sky. Kokoro-FastAPI's rules (remsky/Kokoro-FastAPI,
// api/src/services/tts_service.py get_voices_path; docs/design/voice-blends.md): parts joined by `+`
// (added) or `-` (subtracted), an optional positive weight in brackets (none: 1), weights divided
// by their sum, the language of the first voice. Written by hand: a dozen lines of grammar, and the
// errors must name the position.

/** The most voices in one blend (Kokoro-FastAPI has no cap; ours bounds the work per blend). */
export const MAX_BLEND_VOICES = 8;
/** The longest voice field, blend or not. */
export const MAX_VOICE_CHARS = 200;

/** One voice of a blend and its share of the style vector (signed, normalised: the shares' magnitudes sum to 1). */
export interface BlendPart {
  voice: string;
  share: number;
}

/** unknown_voice: a part names no voice (`voice` says which); invalid_voice: the syntax, a weight or the cap. */
export class VoiceBlendError extends Error {
  readonly code: 'unknown_voice' | 'invalid_voice';
  readonly voice: string | undefined;
  constructor(code: 'unknown_voice' | 'invalid_voice', message: string, voice?: string) {
    super(message);
    this.name = 'VoiceBlendError';
    this.code = code;
    this.voice = voice;
  }
}

const NAME = /[A-Za-z0-9_.]+/y;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const SPACE = /\s*/y;

/** True when `voice` is written as a blend (a `+`, a `-` or a weight), not as one voice's id. */
export const isVoiceBlend = (voice: string): boolean => /[+\-()]/.test(voice);

/**
 * The voices of `spec` and their shares. `known(id)` says whether a voice exists: a spec that is
 * itself a known id is that voice (so a voice file named with a `-` still works alone), and every
 * part must be known. Throws VoiceBlendError naming the problem (and the 1-based position for syntax).
 */
export function parseVoiceBlend(spec: string, known: (id: string) => boolean): BlendPart[] {
  if (known(spec)) return [{ voice: spec, share: 1 }];
  const parts: { voice: string; weight: number; sign: 1 | -1 }[] = [];
  let at = 0;
  const fail = (what: string): never => {
    throw new VoiceBlendError('invalid_voice', `voice blend ${JSON.stringify(spec)}: ${what} at position ${at + 1}`);
  };
  const match = (re: RegExp): string | null => {
    re.lastIndex = at;
    const m = re.exec(spec);
    if (!m) return null;
    at = re.lastIndex;
    return m[0];
  };
  let sign: 1 | -1 = 1;
  for (;;) {
    match(SPACE);
    const name = match(NAME);
    if (!name)
      fail(at >= spec.length ? 'a voice id is missing' : `expected a voice id, found ${JSON.stringify(spec[at])}`);
    match(SPACE);
    let weight = 1;
    if (spec[at] === '(') {
      at += 1;
      match(SPACE);
      const start = at;
      const number = match(NUMBER);
      if (number === null) fail('expected a weight (a positive number)');
      weight = Number(number);
      if (!(weight > 0) || !Number.isFinite(weight)) {
        at = start;
        fail(`the weight of ${name} must be a positive number, got ${number}`);
      }
      match(SPACE);
      if (spec[at] !== ')') fail(`expected ")" after the weight of ${name}`);
      at += 1;
      match(SPACE);
    }
    parts.push({ voice: name!, weight, sign });
    if (parts.length > MAX_BLEND_VOICES) fail(`more than ${MAX_BLEND_VOICES} voices in one blend`);
    if (at >= spec.length) break;
    const op = spec[at];
    if (op !== '+' && op !== '-') fail(`expected "+" or "-", found ${JSON.stringify(op)}`);
    sign = op === '+' ? 1 : -1;
    at += 1;
  }
  for (const p of parts) {
    if (!known(p.voice)) {
      throw new VoiceBlendError(
        'unknown_voice',
        `unknown voice ${JSON.stringify(p.voice)}${isVoiceBlend(spec) ? ` in the blend ${JSON.stringify(spec)}` : ''}`,
        p.voice,
      );
    }
  }
  const total = parts.reduce((sum, p) => sum + p.weight, 0);
  return parts.map((p) => ({ voice: p.voice, share: (p.sign * p.weight) / total }));
}

/** The voice whose language a blend speaks: its first (Kokoro-FastAPI: the first voice's letter). */
export function blendLanguageVoice(spec: string): string {
  if (!isVoiceBlend(spec)) return spec;
  NAME.lastIndex = spec.search(/\S/);
  return NAME.exec(spec)?.[0] ?? spec;
}

/** A blend's canonical name (same voices and shares, same name): what caches key on. */
export const blendKey = (parts: readonly BlendPart[]): string => parts.map((p) => `${p.voice}*${p.share}`).join('+');

/** Why `voice` is neither one of `voices` nor a blend of them (null: it is one). */
export function voiceProblem(voice: string, voices: readonly string[]): VoiceBlendError | null {
  const known = new Set(voices);
  return refusal(() => parseVoiceBlend(voice, (id) => known.has(id)));
}

/** A blend's syntax, weight or size error, whatever voices exist (null: a plain id or a well-formed blend). */
export function voiceSyntaxProblem(voice: string): VoiceBlendError | null {
  if (!isVoiceBlend(voice)) return null;
  // Every part counts as known, the whole spec not: only the grammar is checked.
  return refusal(() => parseVoiceBlend(voice, (id) => id !== voice));
}

function refusal(parse: () => unknown): VoiceBlendError | null {
  try {
    parse();
    return null;
  } catch (error) {
    if (error instanceof VoiceBlendError) return error;
    throw error;
  }
}
