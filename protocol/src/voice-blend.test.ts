import { describe, expect, test } from '@jest/globals';
import { voiceSettingsSchema } from './container.ts';
import {
  blendKey,
  blendLanguageVoice,
  isVoiceBlend,
  MAX_BLEND_VOICES,
  parseVoiceBlend,
  VoiceBlendError,
  voiceProblem,
  voiceSyntaxProblem,
} from './voice-blend.ts';

const VOICES = new Set(['af_bella', 'af_sky', 'am_adam', 'ef_dora', 'my-voice']);
const known = (id: string) => VOICES.has(id);

function refusal(spec: string): VoiceBlendError {
  try {
    parseVoiceBlend(spec, known);
  } catch (error) {
    expect(error).toBeInstanceOf(VoiceBlendError);
    return error as VoiceBlendError;
  }
  throw new Error(`${spec} was accepted`);
}

describe('parseVoiceBlend (Kokoro-FastAPI syntax)', () => {
  test('weights are divided by their sum; a part without a weight counts 1', () => {
    expect(parseVoiceBlend('af_bella(2)+af_sky(1)', known)).toEqual([
      { voice: 'af_bella', share: 2 / 3 },
      { voice: 'af_sky', share: 1 / 3 },
    ]);
    expect(parseVoiceBlend('af_bella+af_sky+am_adam(2)', known)).toEqual([
      { voice: 'af_bella', share: 0.25 },
      { voice: 'af_sky', share: 0.25 },
      { voice: 'am_adam', share: 0.5 },
    ]);
    expect(parseVoiceBlend(' af_bella ( 0.5 ) + af_sky(1.5) ', known)).toEqual([
      { voice: 'af_bella', share: 0.25 },
      { voice: 'af_sky', share: 0.75 },
    ]);
  });

  test('a single voice, with or without a weight, is that voice; "-" subtracts', () => {
    expect(parseVoiceBlend('af_bella', known)).toEqual([{ voice: 'af_bella', share: 1 }]);
    expect(parseVoiceBlend('af_bella(3)', known)).toEqual([{ voice: 'af_bella', share: 1 }]);
    expect(parseVoiceBlend('af_bella(3)-af_sky', known)).toEqual([
      { voice: 'af_bella', share: 0.75 },
      { voice: 'af_sky', share: -0.25 },
    ]);
    // A known id with a "-" in it is that voice, not a subtraction.
    expect(parseVoiceBlend('my-voice', known)).toEqual([{ voice: 'my-voice', share: 1 }]);
  });

  test('an unknown voice is named', () => {
    const e = refusal('af_bella(2)+zz_nobody');
    expect(e.code).toBe('unknown_voice');
    expect(e.voice).toBe('zz_nobody');
    expect(e.message).toBe('unknown voice "zz_nobody" in the blend "af_bella(2)+zz_nobody"');
  });

  test.each([
    ['af_bella(0)+af_sky', 'the weight of af_bella must be a positive number, got 0 at position 10'],
    ['af_bella(-1)+af_sky', 'the weight of af_bella must be a positive number, got -1 at position 10'],
    ['af_bella+af_sky(x)', 'expected a weight (a positive number) at position 17'],
    ['af_bella(2+af_sky', 'expected ")" after the weight of af_bella at position 11'],
    ['af_bella++af_sky', 'expected a voice id, found "+" at position 10'],
    ['af_bella+', 'a voice id is missing at position 10'],
    ['af_bella*af_sky', 'expected "+" or "-", found "*" at position 9'],
    ['af_bella(1e999)', 'the weight of af_bella must be a positive number, got 1e999 at position 10'],
  ])('%s is refused: %s', (spec, what) => {
    const e = refusal(spec);
    expect(e.code).toBe('invalid_voice');
    expect(e.message).toBe(`voice blend ${JSON.stringify(spec)}: ${what}`);
  });

  test(`at most ${MAX_BLEND_VOICES} voices`, () => {
    const many = Array.from({ length: MAX_BLEND_VOICES + 1 }, () => 'af_sky').join('+');
    expect(refusal(many).message).toMatch(/more than 8 voices in one blend at position/);
    expect(parseVoiceBlend(many.slice(0, many.lastIndexOf('+')), known)).toHaveLength(MAX_BLEND_VOICES);
  });

  test('the first voice gives the language; the key names voices and shares', () => {
    expect(blendLanguageVoice(' ef_dora(1)+af_sky')).toBe('ef_dora');
    expect(blendLanguageVoice('af_sky')).toBe('af_sky');
    expect(isVoiceBlend('af_sky')).toBe(false);
    expect(isVoiceBlend('af_sky(2)')).toBe(true);
    expect(blendKey(parseVoiceBlend('af_bella(2)+af_sky', known))).toBe(
      blendKey(parseVoiceBlend('af_bella(4)+af_sky(2)', known)),
    );
  });

  test('the settings schema takes a blend of 200 characters, and names the speed range', () => {
    expect(voiceSettingsSchema.safeParse({ voice: 'a'.repeat(200) }).success).toBe(true);
    expect(voiceSettingsSchema.safeParse({ voice: 'a'.repeat(201) }).success).toBe(false);
    const speed = voiceSettingsSchema.safeParse({ speed: 2.5 });
    expect(speed.error?.issues[0]?.message).toBe('must be between 0.5 and 2.0');
  });

  test('voiceProblem checks against a list; voiceSyntaxProblem and the settings schema check only the grammar', () => {
    expect(voiceProblem('af_bella(2)+af_sky', [...VOICES])).toBeNull();
    expect(voiceProblem('af_bella+zz', [...VOICES])?.code).toBe('unknown_voice');
    expect(voiceProblem('zz', [...VOICES])?.message).toBe('unknown voice "zz"');
    expect(voiceSyntaxProblem('zz_any(2)+yy_other')).toBeNull();
    expect(voiceSyntaxProblem('zz_plain')).toBeNull();
    expect(voiceSyntaxProblem('zz_any(0)+yy')?.message).toMatch(/must be a positive number, got 0 at position 8/);
    const parsed = voiceSettingsSchema.safeParse({ voice: 'af_bella+' });
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['voice'],
      message: 'voice blend "af_bella+": a voice id is missing at position 10',
    });
  });
});
