// Kokoro-82M v1.0's 54 voices and what the voice list says of each: kokoro-js's metadata for its 28
// English voices, and for the other 26 (bundled in kokoro-js's package too, but not in its list)
// the language and gender the id spells and the grades hexgrad lists (docs/design/languages.md).
import { languageOf, voiceGender } from './languages.ts';
import type { VoiceInfo } from './types.ts';

/** The voices/ folder of onnx-community/Kokoro-82M-v1.0-ONNX at the pinned revision, less af.bin (a v0.19 blend). */
export const KOKORO_V1_VOICES: readonly string[] = [
  ...['alloy', 'aoede', 'bella', 'heart', 'jessica', 'kore', 'nicole', 'nova', 'river', 'sarah', 'sky'].map(
    (n) => `af_${n}`,
  ),
  ...['adam', 'echo', 'eric', 'fenrir', 'liam', 'michael', 'onyx', 'puck', 'santa'].map((n) => `am_${n}`),
  ...['bf_alice', 'bf_emma', 'bf_isabella', 'bf_lily', 'bm_daniel', 'bm_fable', 'bm_george', 'bm_lewis'],
  ...['ef_dora', 'em_alex', 'em_santa', 'ff_siwis', 'hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi'],
  ...['if_sara', 'im_nicola', 'jf_alpha', 'jf_gongitsune', 'jf_nezumi', 'jf_tebukuro', 'jm_kumo'],
  ...['pf_dora', 'pm_alex', 'pm_santa'],
  ...['zf_xiaobei', 'zf_xiaoni', 'zf_xiaoxiao', 'zf_xiaoyi', 'zm_yunjian', 'zm_yunxi', 'zm_yunxia', 'zm_yunyang'],
];

/** Target quality and overall grade of the non-English voices (hexgrad/kokoro kokoro.js/src/voices.js, commented out there). */
const GRADES: Readonly<Record<string, readonly [string, string]>> = {
  ef_dora: ['C', 'D'],
  em_alex: ['C', 'D'],
  em_santa: ['C', 'D'],
  ff_siwis: ['B', 'B-'],
  hf_alpha: ['B', 'C'],
  hf_beta: ['B', 'C'],
  hm_omega: ['B', 'C'],
  hm_psi: ['B', 'C'],
  if_sara: ['B', 'C'],
  im_nicola: ['B', 'C'],
  jf_alpha: ['B', 'C+'],
  jf_gongitsune: ['B', 'C'],
  jf_nezumi: ['B', 'C-'],
  jf_tebukuro: ['B', 'C'],
  jm_kumo: ['B', 'C-'],
  pf_dora: ['C', 'D'],
  pm_alex: ['C', 'D'],
  pm_santa: ['C', 'D'],
  zf_xiaobei: ['C', 'D'],
  zf_xiaoni: ['C', 'D'],
  zf_xiaoxiao: ['C', 'D'],
  zf_xiaoyi: ['C', 'D'],
  zm_yunjian: ['C', 'D'],
  zm_yunxi: ['C', 'D'],
  zm_yunxia: ['C', 'D'],
  zm_yunyang: ['C', 'D'],
};

const isV1 = new Set(KOKORO_V1_VOICES);

/**
 * A voice's entry in the voice list: kokoro-js's metadata where it has some; for a v1.0 voice
 * without it, a name from the id and the published grades; the language and gender from the id.
 */
export function describeVoice(
  id: string,
  meta: Record<string, string | undefined> | undefined,
  source: 'kokoro-js' | 'model-dir',
): VoiceInfo {
  const optional = (key: keyof VoiceInfo, value: string | undefined) => (value ? { [key]: value } : {});
  const language = languageOf(id);
  const grades = GRADES[id];
  const name = meta?.['name'] ?? (isV1.has(id) ? capitalise(id.slice(3)) : undefined);
  return {
    id,
    ...optional('name', name),
    language: meta?.['language'] ?? language.tag,
    ...optional('gender', meta?.['gender'] ?? voiceGender(id)),
    ...optional('traits', meta?.['traits']),
    ...optional('target_quality', meta?.['targetQuality'] ?? grades?.[0]),
    ...optional('overall_grade', meta?.['overallGrade'] ?? grades?.[1]),
    ...optional('unavailable', language.unavailable),
    source,
  };
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
