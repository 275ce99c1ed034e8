import { describe, expect, test } from '@jest/globals';
import { progressBar } from './progress.ts';

function sink(isTTY: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  let text = '';
  const stream = { isTTY, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

const step = (file: string | undefined, bytes: number) => ({
  file,
  fileBytes: 0,
  fileSize: 92e6,
  bytes,
  totalBytes: 92e6,
  filesDone: 0,
  filesTotal: 4,
});

describe('download progress', () => {
  test('not a terminal: one line per file, then a summary', () => {
    const out = sink(false);
    const report = progressBar(out.stream);
    report(step('config.json', 0));
    report(step('onnx/model_quantized.onnx', 10e6));
    report(step('onnx/model_quantized.onnx', 50e6));
    report({ ...step(undefined, 92e6), filesDone: 4 });
    expect(out.text()).toBe(
      'downloading config.json (92.0 MB)\ndownloading onnx/model_quantized.onnx (92.0 MB)\ndownloaded and verified 4 files, 92.0 MB\n',
    );
  });

  test('a terminal: one bar redrawn in place, ending at 100%', () => {
    const out = sink(true);
    const report = progressBar(out.stream);
    report(step('onnx/model_quantized.onnx', 46e6));
    report({ ...step(undefined, 92e6), filesDone: 4 });
    const frames = out.text().split('\r').filter(Boolean);
    expect(frames[0]).toMatch(/^█{14}░{14}  50%  46\.0 MB \/ 92\.0 MB  onnx\/model_quantized\.onnx/);
    expect(frames.at(-1)).toMatch(/^█{28} 100%  92\.0 MB \/ 92\.0 MB  verified\s*\n$/);
  });
});
