// A model folder given by the user is checked before loading: every missing or unusable file named
// at once, the flag or variable the user gave, a missing folder on its own, and how to get the files.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFixtureModel } from '@kokoro-speech/container/fixture';
import { KOKORO_ONNX_REVISION } from '@kokoro-speech/weights';
import { checkModelFolder, describeModelFolder, fetchFilesCommand } from './model-dir.ts';

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(join(tmpdir(), 'model-dir-'))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const message = async (dir: string, source: '--model-dir' | 'KOKORO_MODEL_DIR' = '--model-dir') =>
  describeModelFolder(await checkModelFolder(dir, 'q8'), dir, 'q8', source, {});

describe('checkModelFolder', () => {
  test('an empty folder: every missing file in one message, with the flag used and the way to get them', async () => {
    const dir = join(scratch, 'empty');
    await mkdir(dir);
    const text = await message(dir);
    expect(text).toContain(
      `--model-dir ${dir} cannot be loaded (Kokoro-82M q8 needs config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx):`,
    );
    expect(text).toContain(
      'it has no config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx (needed for --dtype q8)',
    );
    expect(text).toContain(fetchFilesCommand(dir, 'q8', {}));
    expect(text).toContain('npm start -- --offline');
    // The variable, when that is what the user set.
    expect(await message(dir, 'KOKORO_MODEL_DIR')).toMatch(new RegExp(`^KOKORO_MODEL_DIR=${dir} cannot be loaded`));
  });

  test('a folder that does not exist gets its own message', async () => {
    const dir = join(scratch, 'nowhere');
    const text = await message(dir);
    expect(text).toMatch(new RegExp(`^--model-dir ${dir}: there is no such folder\\.\\nGet the files`));
    expect(await message(join(scratch, 'empty', '..', 'empty'))).not.toContain('no such folder');
    const file = join(scratch, 'a-file');
    await writeFile(file, 'x');
    expect(await message(file)).toContain(`--model-dir ${file}: that is a file, not a folder.`);
  });

  test('placeholder files: each named with what is wrong with it, never a TypeError', async () => {
    const dir = join(scratch, 'placeholders');
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'config.json'), '{}');
    await writeFile(join(dir, 'tokenizer.json'), '{}');
    await writeFile(join(dir, 'tokenizer_config.json'), 'placeholder\n');
    await writeFile(
      join(dir, 'onnx', 'model_quantized.onnx'),
      'version https://git-lfs.github.com/spec/v1\noid sha256:fbae\nsize 92361116\n',
    );
    const report = await checkModelFolder(dir, 'q8');
    expect(report.missing).toEqual([]);
    expect(report.invalid.map((i) => i.path)).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
    ]);
    const text = describeModelFolder(report, dir, 'q8', '--model-dir', {})!;
    expect(text).toContain('config.json has no "model_type": not a model config');
    expect(text).toContain('tokenizer.json is not a tokenizer file (no "model", "normalizer"');
    expect(text).toContain('tokenizer_config.json is not JSON');
    expect(text).toContain('onnx/model_quantized.onnx is a Git LFS pointer, not the file');

    await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), '<html>404 Not Found</html>');
    await writeFile(join(dir, 'config.json'), '');
    const again = (await message(dir))!;
    expect(again).toContain('onnx/model_quantized.onnx is text, not an ONNX model (it starts "<html>404');
    expect(again).toContain('config.json is empty');
  });

  test('a complete folder passes, and the files of the other dtype are not asked for', async () => {
    const dir = join(scratch, 'complete');
    await writeFixtureModel(dir); // config, tokenizer files and onnx/model.onnx (fp32)
    await expect(checkModelFolder(dir, 'fp32')).resolves.toEqual({ folder: null, missing: [], invalid: [] });
    expect(describeModelFolder(await checkModelFolder(dir, 'fp32'), dir, 'fp32', '--model-dir', {})).toBeNull();
    expect((await checkModelFolder(dir, 'q8')).missing).toEqual(['onnx/model_quantized.onnx']);
  });

  test('the one-line download takes the pinned revision, through HF_ENDPOINT when set, and quotes odd folders', () => {
    expect(fetchFilesCommand('/m/kokoro', 'q8', {})).toBe(
      'for f in config.json tokenizer.json tokenizer_config.json onnx/model_quantized.onnx; do curl -fL --create-dirs ' +
        `-o /m/kokoro/$f https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX/resolve/${KOKORO_ONNX_REVISION}/$f || break; done`,
    );
    expect(fetchFilesCommand("/m/it's here", 'fp32', { HF_ENDPOINT: 'https://mirror.example/' })).toContain(
      `-o '/m/it'\\''s here'/$f https://mirror.example/onnx-community/Kokoro-82M-v1.0-ONNX/resolve/`,
    );
  });
});
