// The lexicon file: its format checked entry by entry, its phonemes against Kokoro's vocabulary,
// duplicates refused naming both; read from a file or from S3 (a loopback server answering the
// SDK's GetObject request, so the real client and its request signing run).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { kokoroVocab } from '../fixture/tokenizer.ts';
import { Lexicon, LexiconError, parseLexicon } from './lexicon.ts';
import { loadLexicon, readSymbols, s3Location } from './lexicon-source.ts';

const symbols = new Set(Object.keys(kokoroVocab()));
const file = (entries: unknown[]) => JSON.stringify({ entries });
const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LexiconError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('checking a lexicon', () => {
  test('a symbol outside the vocabulary is refused naming the symbol and the entry', () => {
    const entries = parseLexicon(
      file([
        { word: 'fine', say: 'fine' },
        { word: 'Zoë', phonemes: 'zoʊ☃i' },
      ]),
      'lex.json',
    );
    expect(refusal(() => new Lexicon(entries, symbols, 'lex.json'))).toBe(
      'lexicon lex.json, entry 2 ("Zoë"): the phoneme "☃" (U+2603) in "zoʊ☃i" is not in Kokoro\'s vocabulary',
    );
  });

  test('duplicates are refused naming both entries; exact and case-insensitive entries may share a word', () => {
    expect(
      refusal(() =>
        parseLexicon(
          file([
            { word: 'Kokoro', say: 'a' },
            { word: 'x', say: 'b' },
            { word: 'KOKORO', say: 'c' },
          ]),
          'l',
        ),
      ),
    ).toBe('lexicon l: entry 1 ("Kokoro") and entry 3 ("KOKORO") are the same word (case-insensitive); keep one');
    expect(
      refusal(() =>
        parseLexicon(
          file([
            { word: 'New  York', say: 'a', case: 'exact' },
            { word: 'New York', say: 'b', case: 'exact' },
          ]),
          'l',
        ),
      ),
    ).toContain('entry 1 ("New  York") and entry 2 ("New York") are the same word (exact case)');
    expect(
      parseLexicon(
        file([
          { word: 'AWS', say: 'A W S', case: 'exact' },
          { word: 'aws', say: 'awes' },
        ]),
        'l',
      ),
    ).toHaveLength(2);
  });

  test('malformed files and entries are refused naming what is wrong', () => {
    expect(refusal(() => parseLexicon('{"entries": [', 'l'))).toMatch(/^lexicon l is not valid JSON/);
    expect(refusal(() => parseLexicon('[]', 'l'))).toContain('must be a JSON object {"entries": [...]}');
    expect(refusal(() => parseLexicon(file([{ word: 'a', say: 'b', phonemes: 'c' }]), 'l'))).toBe(
      'lexicon l, entry 1 ("a"): give exactly one of "phonemes" and "say"',
    );
    expect(refusal(() => parseLexicon(file([{ word: ' ', say: 'b' }]), 'l'))).toContain('"word" must not be empty');
    expect(refusal(() => parseLexicon(file([{ word: 'a', say: 'b', case: 'upper' }]), 'l'))).toContain(
      'entry 1 ("a"): "case"',
    );
    expect(refusal(() => parseLexicon(file([{ word: 'a', say: 'b', note: 1 }]), 'l'))).toContain('entry 1 ("a")');
  });
});

describe('reading a lexicon', () => {
  let dir: string;
  let s3: Server;
  let endpoint: string;
  const requests: IncomingMessage[] = [];
  const objects = new Map<string, string>([
    ['/lexicons/prod/lexicon.json', file([{ word: 'Kokoro', phonemes: 'kˈOkəɹO' }])],
  ]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lexicon-'));
    // S3's GetObject, path-style, at the wire: 200 with the body, or S3's NoSuchKey error document.
    s3 = createServer((req, res) => {
      requests.push(req);
      const body = objects.get((req.url ?? '').split('?')[0]!);
      if (body === undefined) {
        res.writeHead(404, { 'content-type': 'application/xml' });
        return res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
        );
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => s3.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const s3Env = () => ({
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
  });
  /** The SDK reads its settings from the process environment. */
  async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await run();
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  }

  test('from a file', async () => {
    const path = join(dir, 'lexicon.json');
    await writeFile(path, file([{ word: 'Kokoro', say: 'ko ko ro' }]));
    expect(await loadLexicon(path)).toEqual([{ word: 'Kokoro', say: 'ko ko ro' }]);
    await expect(loadLexicon(join(dir, 'missing.json'))).rejects.toThrow(
      /cannot read the lexicon KOKORO_LEXICON=.*missing\.json: ENOENT/,
    );
  });

  test('from S3: a signed GetObject of the key, path-style at a custom endpoint', async () => {
    const entries = await withEnv(s3Env(), () => loadLexicon('s3://lexicons/prod/lexicon.json', process.env));
    expect(entries).toEqual([{ word: 'Kokoro', phonemes: 'kˈOkəɹO' }]);
    const req = requests.at(-1)!;
    expect(req.method).toBe('GET');
    expect(req.url?.split('?')[0]).toBe('/lexicons/prod/lexicon.json');
    expect(req.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test\/\d{8}\/eu-west-1\/s3\/aws4_request/);
  });

  test('a missing S3 object or a bad s3:// address is refused naming it', async () => {
    await expect(withEnv(s3Env(), () => loadLexicon('s3://lexicons/none.json', process.env))).rejects.toThrow(
      /cannot read the lexicon KOKORO_LEXICON=s3:\/\/lexicons\/none\.json: .*(NoSuchKey|does not exist)/,
    );
    expect(() => s3Location('s3://bucket-only')).toThrow('must be s3://bucket/key');
    expect(s3Location('/opt/ml/lexicon.json')).toBeNull();
  });

  test("the model folder's symbols come from its tokenizer.json", async () => {
    const { writeFixtureModel } = await import('../fixture/index.ts');
    await writeFixtureModel(join(dir, 'model'));
    expect(await readSymbols(join(dir, 'model'))).toEqual(symbols);
    expect(await readSymbols(join(dir, 'nowhere'))).toBeUndefined();
  });
});
