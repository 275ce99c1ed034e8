// Which language a voice speaks, blends included (a blend speaks its first voice's language).
import { describe, expect, test } from '@jest/globals';
import { languageMatches, voiceLanguage } from './languages.ts';

describe('voiceLanguage', () => {
  test('a voice by the list, else by its letter; a blend by its first voice', () => {
    const info = [{ id: 'zz_custom', language: 'en-GB', source: 'model-dir' as const }];
    expect(voiceLanguage('ef_dora', undefined)).toBe('es');
    expect(voiceLanguage('zz_custom', info)).toBe('en-gb');
    expect(voiceLanguage('ef_dora(2)+af_heart(1)', undefined)).toBe('es');
    expect(voiceLanguage(' af_heart + ef_dora', undefined)).toBe('en-us');
    expect(voiceLanguage('zz_custom(1)+ef_dora', info)).toBe('en-gb');
    expect(languageMatches('es', voiceLanguage('ef_dora+af_heart', undefined))).toBe(true);
  });
});
