// Every Kokoro v1.0 language through the real prep workers on the stand-in model: the G2P chosen by
// the voice's first letter, word maps, refusals that name why, and English exactly as before.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLES_PER_TOKEN, writeFixtureModel } from '../fixture/index.ts';
import { kokoroVocab } from '../fixture/tokenizer.ts';
import { loadKokoroEngine, type KokoroEngine } from './index.ts';
import { KOKORO_V1_VOICES } from './voice-catalog.ts';
import { DROPPED_SYMBOLS } from './vocabulary.ts';

let dir: string;
let engine: KokoroEngine;
const vocab = kokoroVocab();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kokoro-languages-'));
  await writeFixtureModel(dir);
  engine = await loadKokoroEngine({ modelDir: dir, prepWorkers: 1 });
});

afterAll(async () => {
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the tokenizer makes of phonemes: one id per symbol, the sound-less marks dropped. */
const idsOf = (phonemes: string) => [...phonemes].filter((c) => !DROPPED_SYMBOLS.has(c)).map((c) => vocab[c]);

describe('English is prepared exactly as before', () => {
  // kokoro-js 1.2.1's phonemes for these (its generate(), before this change and after).
  test.each([
    ['af_heart', 'Hello there, how are you today?', 'həlˈoʊ ðˈɛɹ, hˌaʊ ɑːɹ juː tədˈeɪ?'],
    [
      'af_heart',
      'The total is $12.50 (tax included) for 3 items.',
      'ðə tˈoʊɾəl ɪz twˈɛlv dˈɑːlɚz ænd fˈɪfti sˈɛnts «tˈæks ɪŋklˈuːdᵻd» fɔːɹ θɹˈiː ˈaɪɾəmz.',
    ],
    ['af_heart', 'She said "press the button" at 10:30.', 'ʃiː sˈɛd "pɹˈɛs ðə bˈʌʔn̩" æt tˈɛn θˈɜːɾi.'],
    ['af_heart', 'See [note 2] and {braces}, ¡olé!', 'sˈiː [nˈoʊt tˈuː] ˈænd {bɹˈeɪsᵻz}, ¡ɑːlˈeɪ!'],
    [
      'bf_emma',
      'The tomato and the schedule, in British English.',
      'ðə təmˈɑːtəʊ and ðə ʃˈɛdjuːl, ɪn bɹˈɪtɪʃ ˈɪŋɡlɪʃ.',
    ],
    ['bf_emma', 'It costs £5 and 20 pence.', 'ɪt kˈɒsts fˈaɪv pˈaʊndz and twˈɛnti pˈɛns.'],
  ])('%s: %s', async (voice, text, phonemes) => {
    const [piece, ...rest] = await engine.prepare(text, voice);
    expect(rest).toEqual([]);
    expect(piece!.phonemes).toBe(phonemes);
    expect(piece!.tokenIds).toEqual(idsOf(phonemes));
  });
});

describe('the espeak languages, chosen by the voice', () => {
  // misaki's phonemes for each sentence (espeak-languages.test.ts has more, and how they were made).
  test.each([
    [
      'ef_dora',
      'Buenos días, me llamo Dora y trabajo en atención al cliente.',
      'bwˈenos ðˈias, me ʎˈamo ðˈoɾa i tɾaβˈaxo en ˌatenθjˈon al kliˈɛnte.',
    ],
    ['ff_siwis', 'Bonjour, je suis très heureux de vous rencontrer.', 'bɔ̃ʒˈuʁ, ʒə syˌi tʁɛz øʁˈø də vu ʁɑ̃kɔ̃tʁˈe.'],
    ['hm_omega', 'नमस्ते, आप कैसे हैं?', 'nəmˈʌsteː, ˌaːp kˈɛːseː hɛ̃?'],
    ['im_nicola', 'Ciao, come stai?', 'ʧˈao, kˌome stˈaj?'],
    ['pf_dora', 'Olá, tudo bem?', 'olˈa, tˈudʊ bˈAŋ?'],
  ])('%s: %s', async (voice, text, phonemes) => {
    const [piece, ...rest] = await engine.prepare(text, voice);
    expect(rest).toEqual([]);
    expect(piece!.phonemes).toBe(phonemes);
    expect(piece!.tokenIds).toEqual(idsOf(phonemes));
    // Every word of the text has its own, ordered tokens.
    const words = piece!.words!;
    expect(words.map((w) => text.slice(w.start, w.end))).toEqual(text.split(' '));
    for (const [i, w] of words.entries()) {
      expect(w.tokenEnd).toBeGreaterThan(w.tokenStart);
      if (i > 0) expect(w.tokenStart).toBeGreaterThanOrEqual(words[i - 1]!.tokenEnd);
    }
  });

  test('sentences are cut per language (the Hindi danda), each with its offset', async () => {
    const text = 'धन्यवाद! फिर मिलेंगे। आज मौसम सुहाना है।';
    const pieces = await engine.prepare(text, 'hf_alpha');
    expect(pieces.map((p) => p.text)).toEqual(['धन्यवाद!', 'फिर मिलेंगे।', 'आज मौसम सुहाना है।']);
    for (const p of pieces) expect(text.slice(p.offset!, p.offset! + p.text.length)).toBe(p.text);
  });

  test('a Spanish piece synthesises on the stand-in like any other', async () => {
    const [piece] = await engine.prepare('¿Dónde está la biblioteca?', 'em_alex');
    const audio = await engine.synthesize(piece!, 'em_alex', 1);
    expect(audio.length).toBe((piece!.tokenIds.length + 2) * SAMPLES_PER_TOKEN);
  });

  test('text in another script is spoken as well as espeak-ng can', async () => {
    const [piece] = await engine.prepare('Hola, मैं ठीक हूँ, hello world.', 'ef_dora');
    expect(piece!.phonemes).toMatch(/^ˈola, /);
    expect(piece!.tokenIds.length).toBeGreaterThan(15);
  });
});

describe('refusals name why; the engine goes on', () => {
  test.each([
    ['jf_alpha', 'こんにちは、元気ですか。', /Japanese voices cannot speak here: .*UniDic/],
    ['zm_yunxi', '你好，世界。', /Mandarin Chinese voices cannot speak here: .*pypinyin/],
  ])('%s', async (voice, text, why) => {
    await expect(engine.prepare(text, voice)).rejects.toMatchObject({
      code: 'unsupported_language',
      message: expect.stringMatching(why),
    });
    expect((await engine.prepare('Sigo aquí.', 'ef_dora')).length).toBe(1);
  });

  test('a phoneme Kokoro cannot say is an error naming it, not a silent drop', async () => {
    // espeak-ng reads the Cyrillic letter ё in an Italian voice with ɵ, which has no token.
    await expect(engine.prepare('La lettera ё.', 'if_sara')).rejects.toMatchObject({
      code: 'unspeakable_text',
      message: expect.stringMatching(/Italian G2P gave the phoneme "ɵ" \(U\+0275\)/),
    });
  });
});

describe('the voice list', () => {
  test('all 54 v1.0 voices, with language and gender from the id', () => {
    for (const id of KOKORO_V1_VOICES) expect(engine.voices).toContain(id);
    expect(KOKORO_V1_VOICES).toHaveLength(54);
    const info = (id: string) => engine.voiceInfo.find((v) => v.id === id);
    expect(info('ef_dora')).toEqual({
      id: 'ef_dora',
      name: 'Dora',
      language: 'es',
      gender: 'Female',
      target_quality: 'C',
      overall_grade: 'D',
      source: 'kokoro-js',
    });
    expect(info('hm_psi')).toMatchObject({ language: 'hi', gender: 'Male' });
    expect(info('pm_santa')).toMatchObject({ language: 'pt-br', gender: 'Male' });
    expect(info('ff_siwis')).toMatchObject({ language: 'fr-fr', gender: 'Female' });
    expect(info('jf_alpha')).toMatchObject({
      language: 'ja',
      gender: 'Female',
      unavailable: expect.stringMatching(/UniDic/),
    });
    expect(info('zm_yunxi')).toMatchObject({ language: 'zh', gender: 'Male', unavailable: expect.any(String) });
    expect(info('af_heart')).toMatchObject({ name: 'Heart', language: 'en-us', gender: 'Female' });
    expect(info('af_heart')!.unavailable).toBeUndefined();
  });
});
