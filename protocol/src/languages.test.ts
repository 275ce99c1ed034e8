// The rule that joins a turn's voice and language (docs/contracts/turn.md, "Language").
import { describe, expect, test } from '@jest/globals';
import { chooseLanguage, DEFAULT_VOICES, LanguageChoiceError, voiceLanguage } from './languages.ts';
import { turnRequestSchema } from './turn.ts';

describe('chooseLanguage', () => {
  test('a voice speaks its own language', () => {
    expect(chooseLanguage({ voice: 'ef_dora' }, 'af_heart')).toEqual({ voice: 'ef_dora', language: 'es' });
    expect(chooseLanguage({ voice: 'bm_george' }, 'af_heart')).toEqual({ voice: 'bm_george', language: 'en' });
    expect(chooseLanguage({ voice: 'my_custom_voice' }, 'af_heart')).toEqual({
      voice: 'my_custom_voice',
      language: 'en',
    });
    expect(chooseLanguage({}, 'ff_siwis')).toEqual({ voice: 'ff_siwis', language: 'fr' });
  });

  test("a language alone: the agent's default voice if it speaks it, else the language's default", () => {
    expect(chooseLanguage({ language: 'en' }, 'bf_emma')).toEqual({ voice: 'bf_emma', language: 'en' });
    expect(chooseLanguage({ language: 'it' }, 'af_heart')).toEqual({ voice: 'if_sara', language: 'it' });
    expect(chooseLanguage({ language: 'pt' }, 'pm_alex')).toEqual({ voice: 'pm_alex', language: 'pt' });
    for (const [language, voice] of Object.entries(DEFAULT_VOICES)) expect(voiceLanguage(voice)).toBe(language);
  });

  test("a blend speaks its first voice's language (a Japanese or Mandarin first voice is refused)", () => {
    expect(voiceLanguage('ef_dora(2)+af_heart(1)')).toBe('es');
    expect(voiceLanguage(' jf_alpha+af_heart')).toBe('ja');
    expect(() => chooseLanguage({ voice: 'zf_xiaobei(1)+af_heart(1)' }, 'af_heart')).toThrow(LanguageChoiceError);
    expect(chooseLanguage({ voice: 'af_heart(1)+zf_xiaobei(1)' }, 'af_heart').language).toBe('en');
  });

  test('a voice and a language that disagree are refused, naming both', () => {
    expect(() => chooseLanguage({ voice: 'af_heart', language: 'hi' }, 'af_heart')).toThrow(
      /voice "af_heart" speaks en \(English\), not language "hi".*hf_alpha is its default/,
    );
  });

  test('Japanese and Mandarin are refused as unsupported_language', () => {
    for (const request of [
      { language: 'ja' as const },
      { voice: 'zf_xiaobei' },
      { voice: 'jm_kumo', language: 'ja' as const },
    ]) {
      let error: unknown;
      try {
        chooseLanguage(request, 'af_heart');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(LanguageChoiceError);
      expect((error as LanguageChoiceError).code).toBe('unsupported_language');
    }
  });
});

test('the turn request takes an ISO 639-1 language; another is refused naming the supported ones', () => {
  expect(turnRequestSchema.parse({ prompt: 'Hola', language: 'es' }).language).toBe('es');
  const result = turnRequestSchema.safeParse({ prompt: 'Hallo', language: 'de' });
  expect(result.success).toBe(false);
  expect(result.error!.issues[0]!.message).toBe(
    'must be one of en, es, fr, hi, it, pt (ISO 639-1; ja and zh are refused: no G2P here), got "de"',
  );
});
