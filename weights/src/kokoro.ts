// The pinned Kokoro-82M ONNX export that local mode downloads and the model-cache stack syncs.
// Commit and digests as the Hub lists them for onnx-community/Kokoro-82M-v1.0-ONNX
// (docs/design/kokoro-model.md#pinned-exports).
export const KOKORO_ONNX_REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX';
export const KOKORO_ONNX_REVISION = '1939ad2a8e416c0acfeecc08a694d14ef25f2231';

import { matchesInclude } from './manifest.ts';

export type KokoroDtype = 'fp32' | 'fp16' | 'q8' | 'q4' | 'q4f16';

/** The ONNX file kokoro-js loads for each dtype. */
export const KOKORO_ONNX_FILES: Readonly<Record<KokoroDtype, string>> = {
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  q8: 'onnx/model_quantized.onnx',
  q4: 'onnx/model_q4.onnx',
  q4f16: 'onnx/model_q4f16.onnx',
};

const SHARED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];

/** Include patterns for one dtype: config, tokenizer files and that ONNX file (voices ship with kokoro-js). */
export function kokoroIncludes(dtype: KokoroDtype, options: { voices?: boolean } = {}): string[] {
  const file = KOKORO_ONNX_FILES[dtype];
  if (file === undefined)
    throw new Error(
      `unknown Kokoro dtype ${JSON.stringify(dtype)}; expected one of ${Object.keys(KOKORO_ONNX_FILES).join(', ')}`,
    );
  return [...SHARED_FILES, file, ...(options.voices ? ['voices/*.bin'] : [])];
}

/** The dtypes whose ONNX file an include list takes (the model-cache stack's, say). */
export function kokoroDtypesIn(include: readonly string[]): KokoroDtype[] {
  return (Object.keys(KOKORO_ONNX_FILES) as KokoroDtype[]).filter((dtype) =>
    matchesInclude(KOKORO_ONNX_FILES[dtype], include),
  );
}

/** What the model-cache stack syncs by default: the shared files, fp32 and q8 exports, and every voice. */
export const KOKORO_SYNC_INCLUDES: readonly string[] = [
  ...SHARED_FILES,
  KOKORO_ONNX_FILES.fp32,
  KOKORO_ONNX_FILES.q8,
  'voices/*.bin',
];

/**
 * Sizes and SHA-256 digests of the files local mode uses, at KOKORO_ONNX_REVISION; a sync checks
 * them. The voices are pinned too (KOKORO_VOICES_PINNED, below): a sync that takes voices/*.bin
 * checks each against its pin, and a voice copied in by hand is accepted once it matches.
 */
export const KOKORO_ONNX_PINNED: Readonly<Record<string, { size: number; sha256: string }>> = {
  'config.json': { size: 44, sha256: 'df34b4f930b23447cd4dc410fabfb42eb3f24e803e6c3f97d618fb359380a36f' },
  'tokenizer.json': { size: 3497, sha256: '77a02c8e164413299b4b4c403b14f8e0e1c1b727db4d46a09d6327b861060a34' },
  'tokenizer_config.json': { size: 113, sha256: 'be1cb066d6ef6b074b3f15e6a6dd21ac88ff3cdaedf325f0aaed686c70f75d20' },
  'onnx/model_quantized.onnx': {
    size: 92_361_116,
    sha256: 'fbae9257e1e05ffc727e951ef9b9c98418e6d79f1c9b6b13bd59f5c9028a1478',
  },
  'onnx/model.onnx': { size: 325_532_232, sha256: '8fbea51ea711f2af382e88c833d9e288c6dc82ce5e98421ea61c058ce21a34cb' },
};

/**
 * SHA-256 of the 54 Kokoro v1.0 voices under voices/ at KOKORO_ONNX_REVISION (522,240 bytes each:
 * float32 [510, 1, 256]). The Hub's listing cannot be read from here; these digests are the ones
 * public repositories pin for this revision, and they equal, file for file, kokoro-js 1.2.1's
 * bundled voices (which the container offers) and hexgrad/kokoro's kokoro.js/voices (see
 * docs/design/languages.md). voices/af.bin (524,288 bytes, a v0.19 blend) is not a v1.0 voice.
 */
export const KOKORO_VOICE_DIGESTS: Readonly<Record<string, string>> = {
  af_alloy: 'c4a6b876047fd7fb472edf4ebd63cfac7c3b958a7cae7c106e8f038ca6308c45',
  af_aoede: '4a004c33430762e2461eedb2013fad808ef4ab3121f5300f554476caf58d8361',
  af_bella: 'f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b',
  af_heart: 'd583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b',
  af_jessica: 'a240a5e3c15b43563d6e923bdca8ef5613a23471d9b77653694012435df23bd8',
  af_kore: '9be5221b6a941c04b561959b8ff0b06e809444dcc4ab7e75a7b23606f691819e',
  af_nicole: 'cd2191ab31b914ed7b318416b0e4440fdf392ddad9106a060819aa600a64f59a',
  af_nova: '18778272caa0d0eebaea251c35fd635f038434f9eee5e691d02a174bd328414f',
  af_river: '00a2bcf82b1d86e8f19902ede58c65ccf6c0e43b44b7d74fad54e5d8933c9c30',
  af_sarah: '4409fbc125afabacc615d94db5398d847006a737b0247d6892b7a9a0007a2f0a',
  af_sky: '4435255c9744f3f31659e0d714ab7689bf65d9e77ec1cce060f083912614f0b9',
  am_adam: '162b035ed91cfc48b6046982184c645f72edcdd1b82843347f605d7bf7b15716',
  am_echo: '3968b92c3c4cd1c4416dbded36c13eaa388a90d5788d02a13e4d781f5f8cf3c3',
  am_eric: 'e8b5be17edd1e3636901ce7598baafe2dc8dd8ff707a0c23bf9e461add7e2832',
  am_fenrir: 'c27989f741f7ee34d273a39d8a595cc0837d35f5ced9a29b7cc162614616df43',
  am_liam: '52403be32fd047c6a44517cb0bcd6b134f2a18baa73e70ef41651e0eab921ade',
  am_michael: '1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1',
  am_onyx: 'da5d135b424164916d75a68ffb4c2abce3d7d5ccc82dd1ee6cf447ce286145e6',
  am_puck: 'fcf73c989033e9233e0b98713eca600c8c74dcc1614b37009d5450ff4a2274a0',
  am_santa: '61150cf726ab6c5ed7a99f90a304f91f5a72c00c592e89ec94e5df11c319227a',
  bf_alice: '08afa6ba24da61ea5e8efa139e5aadc938d83f0a6da5a900adaf763ac1da5573',
  bf_emma: '669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73',
  bf_isabella: '3754352c4aaa46d17f27654ab7518d65b62ad6163a0f55a5f4330c2da2c4e94f',
  bf_lily: '5e0ee32ebe64a467124976b14e69590746f1c4ce41a12b587a50c862edfea335',
  bm_daniel: '6b3194bbceffb746733cbc22c8f593dd44e401a71d53895a2dca891bc595a1e8',
  bm_fable: 'f889083196807b4adb15e9204252165f503b8d33d3982e681c52443c49d798f1',
  bm_george: 'c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc',
  bm_lewis: 'b8f671cef828c30e66fdf0b0756a76bba58f6bb3398cbbf27058642acbcedb97',
  ef_dora: 'f66ec66bd295acb18372e37008533a9a3228483ccd294e7538d5d9294ac9a532',
  em_alex: '27809e9eafdcbcfff90a3016c697568676531de2a2c39cee29c96c7bd6b83e95',
  em_santa: 'ad43b774e1ca24d05c6161297d8aeb770ac3d29bb95daf516727af5f7d543683',
  ff_siwis: 'a35f5675ad08948e326ae75fd0ea16ba5d0042e4f76b5f3d1df77d0a48c54861',
  hf_alpha: '040be6a4425411cc01fda5fd06693c76bfa78572632852bc8cda9c99232ffb56',
  hf_beta: 'cd83ae0bb9b2e4e4fb92b4973bd8d1822ca0036d3c498bf4fc89aa8e33917cc7',
  hm_omega: 'b02d9222d9ed00ce26b302173a862c2c93f96cc40b5c422b8d14910b9ff34137',
  hm_psi: '644daf88ba8aeb7bd08950bbdcd4453bb280864e49dc4df93fabc6be32e03f37',
  if_sara: '409b69248798fcdc2542330c76953d230710f19b057e59cb82fdc3c4cf71265c',
  im_nicola: 'bc578e510d52a96d6940d46f12e96d7b3df00905dbea075113226d100e6e1ab0',
  jf_alpha: '56b479360aad9f367aeb8cef908f9201cf48b4555e488c5f4590c9dfcd978bb6',
  jf_gongitsune: '0f1181f3772d27b7c12aaf4bcd71e31b186c4146e330d074a3dc64ee392af396',
  jf_nezumi: '13cb71eebb0b48739d444558322aa35a8c9a489b80e1e631f14d2e6aea93026b',
  jf_tebukuro: '29c6c0561b4288d59639677bebe7533c919743d5ea68d0d2ae992644beea6696',
  jm_kumo: '09e959d239724c734d65661f06f14cdabcddfd476bfaaad905a937099ae9e64f',
  pf_dora: '3da7b5b2d91847ebf5646f57631af6ececae3c29a89cd300f06edf9aa6cfe9ee',
  pm_alex: '0175c753f59c54e7fd5a995bedef0c5ff2fb67e0043dd3dcb2ae74ec2acbeb2a',
  pm_santa: '8b012db3185778afe2e45a62cbad69db73021774fe68dda634bcc748a982eede',
  zf_xiaobei: '5dde6e1c9c4f12c8b327bc29c0cee361a23b52b952c04636858ba637ec66e640',
  zf_xiaoni: '08892b62a39af0a615cd0581238db7e19e44c578e8fa0bfd0e586e93327d9cba',
  zf_xiaoxiao: '03adb5d5e3ddd88b047954e974e651cb0a4b524c985057e5d872e962c7be1169',
  zf_xiaoyi: 'bc1555c5c486099196ac254bae5e0bb543c121952a3092f50b7d8724f1bc36b3',
  zm_yunjian: 'de48a00bdbf3649f07162269a2b6e0513604389bfac8a2e6c75cb34b323ad6fa',
  zm_yunxi: '7243892fb4e560d47014090ddf010f8b8b790f3c6b029ff82b2ac06aa4e27c8b',
  zm_yunxia: '6b2b8fc15b3df19a368daebe5c581c7fabf433ee5b8a17ffd6b3d723cff8936d',
  zm_yunyang: '261e2c89470534dbbcb8fd98b8fdc495ec94063d9bb6c8277f7be43cccba3f42',
};

export const KOKORO_VOICE_BYTES = 522_240;

/** voices/<id>.bin with its pinned size and digest, for each v1.0 voice. */
export const KOKORO_VOICES_PINNED: Readonly<Record<string, { size: number; sha256: string }>> = Object.fromEntries(
  Object.entries(KOKORO_VOICE_DIGESTS).map(([id, sha256]) => [
    `voices/${id}.bin`,
    { size: KOKORO_VOICE_BYTES, sha256 },
  ]),
);

// ---- the timestamped export (an option: word timings from the model's own durations) ----

/**
 * onnx-community's timestamped variant of the same v1.0 export: outputs `waveform` and a
 * `durations` float32 [1, tokens] (predictions before Round and Clip(min=1)), which the container
 * turns into word times. Same config and tokenizer files as the standard export.
 *
 * Where these pins come from (docs/design/kokoro-model.md#pinned-exports): the commit, sizes and
 * SHA-256 digests below were not read from the Hub's listing but are the values that several
 * independent public repositories pin for this repository and commit (and the config and tokenizer
 * digests equal the standard export's). A sync checks every file against them and refuses a
 * mismatch (DigestMismatch / IntegrityError): wrong pins fail loudly, never silently.
 */
export const KOKORO_TIMESTAMPED_REPO = 'onnx-community/Kokoro-82M-v1.0-ONNX-timestamped';
export const KOKORO_TIMESTAMPED_REVISION = 'dd4401a9add81ac692d20e240d22ec9dda82cc29';
export const KOKORO_TIMESTAMPED_PINNED: Readonly<Record<string, { size: number; sha256: string }>> = {
  'config.json': KOKORO_ONNX_PINNED['config.json']!,
  'tokenizer.json': KOKORO_ONNX_PINNED['tokenizer.json']!,
  'tokenizer_config.json': KOKORO_ONNX_PINNED['tokenizer_config.json']!,
  'onnx/model_quantized.onnx': {
    size: 92_361_055,
    sha256: 'c0c02b3299fd97c34ea92a98e6d41eaa1a739c8f77bf685aac34bd7b34c1132c',
  },
  'onnx/model.onnx': { size: 325_532_171, sha256: '651ea8291843a92276a4a003581a215cb07d15e47dde6fcfb1b768f9a1682054' },
};

export type KokoroExportName = 'standard' | 'timestamped';

export interface KokoroExport {
  repo: string;
  revision: string;
  pinned: Readonly<Record<string, { size: number; sha256: string }>>;
  /** Whether the export has a durations output (word timings from the model, not estimated). */
  durations: boolean;
}

export const KOKORO_EXPORTS: Readonly<Record<KokoroExportName, KokoroExport>> = {
  standard: {
    repo: KOKORO_ONNX_REPO,
    revision: KOKORO_ONNX_REVISION,
    pinned: { ...KOKORO_ONNX_PINNED, ...KOKORO_VOICES_PINNED },
    durations: false,
  },
  timestamped: {
    repo: KOKORO_TIMESTAMPED_REPO,
    revision: KOKORO_TIMESTAMPED_REVISION,
    pinned: KOKORO_TIMESTAMPED_PINNED,
    durations: true,
  },
};

/**
 * The include patterns of one export and dtype, refusing any file without a pinned size and
 * digest: an export is only ever fetched verified.
 */
export function exportIncludes(
  name: KokoroExportName,
  dtype: KokoroDtype,
): { export: KokoroExport; include: string[] } {
  const chosen = KOKORO_EXPORTS[name];
  if (chosen === undefined)
    throw new Error(
      `unknown Kokoro export ${JSON.stringify(name)}; expected one of ${Object.keys(KOKORO_EXPORTS).join(', ')}`,
    );
  const include = kokoroIncludes(dtype);
  const unpinned = include.filter((path) => chosen.pinned[path] === undefined);
  if (unpinned.length > 0) {
    throw new Error(
      `the ${name} export has no pinned size and digest for ${unpinned.join(', ')} (dtype ${dtype}); it would download unverified, so it is refused`,
    );
  }
  return { export: chosen, include };
}
