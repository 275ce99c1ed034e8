// The layout tells the truth: each image holds exactly the workspaces it runs and ships nothing
// else; each workspace's production dependencies are what its shipped code loads; and imports go
// one way, from higher layers to lower ones, never back.
import { describe, expect, test } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  WORKSPACES,
  dockerContext,
  isTestCode,
  manifest,
  packageName,
  reach,
  sources,
  specifiers,
  workspaceOf,
} from './import-graph.ts';

const IMAGES = [
  {
    name: 'the agent (AgentCore)',
    entries: ['runtime/src/main.ts'],
    dockerignore: 'runtime/Dockerfile.dockerignore',
    workspaces: ['runtime', 'protocol', 'sagemaker'],
  },
  {
    name: 'the Kokoro server (SageMaker)',
    entries: ['container/src/main.ts'],
    dockerignore: 'container/Dockerfile.dockerignore',
    workspaces: ['container', 'protocol'],
  },
];

describe.each(IMAGES)('image of $name', (image) => {
  const { files, external } = reach(image.entries);

  test('loads only its own workspaces, and every file it loads is in its build context', () => {
    expect([...new Set([...files].map(workspaceOf))].sort()).toEqual([...image.workspaces].sort());
    const inContext = dockerContext(image.dockerignore);
    expect([...files].filter((f) => !inContext(f))).toEqual([]);
    expect([...files].filter(isTestCode)).toEqual([]);
  });

  test('its build context holds nothing of the other workspaces but their manifests', () => {
    const inContext = dockerContext(image.dockerignore);
    const others = [...WORKSPACES.values()].filter((w) => !image.workspaces.includes(w));
    const leaked = others.flatMap((w) => sources(w, { tests: true })).filter(inContext);
    expect(leaked).toEqual([]);
    for (const w of image.workspaces) expect(inContext(`${w}/package.json`)).toBe(true);
  });

  test('every package a shipped file loads is a production dependency of its workspace', () => {
    const missing: string[] = [];
    for (const [pkg, importers] of external) {
      for (const file of importers) {
        const m = manifest(workspaceOf(file));
        if (!m.dependencies?.[pkg]) missing.push(`${file} loads ${pkg}, not in ${workspaceOf(file)}'s dependencies`);
      }
    }
    expect(missing).toEqual([]);
  });
});

// Optional peer dependencies that a library of the agent loads itself when a feature is used: the
// agent must install them (Strands' S3Storage, for persisted conversations, loads the S3 client).
const RUNTIME_PEERS: Record<string, string> = { '@aws-sdk/client-s3': '@strands-agents/sdk' };

test("the agent's production dependencies are exactly what the agent loads", () => {
  const { external } = reach(['runtime/src/main.ts']);
  const loadedByRuntime = [...external].filter(([, by]) => [...by].some((f) => workspaceOf(f) === 'runtime'));
  for (const [peer, library] of Object.entries(RUNTIME_PEERS)) {
    const libraryManifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', library, 'package.json'), 'utf8'));
    expect(libraryManifest.peerDependencies?.[peer]).toBeDefined();
  }
  const loaded = new Set([
    ...Object.keys(RUNTIME_PEERS),
    ...loadedByRuntime.map(([pkg]) => pkg),
    '@kokoro-speech/protocol',
    '@kokoro-speech/sagemaker',
  ]);
  expect(Object.keys(manifest('runtime').dependencies ?? {}).sort()).toEqual([...loaded].sort());
});

// Loaded without an import statement the checker could read: the prep workers' resolve hook maps
// onnxruntime-node to onnxruntime-common by name.
const CONTAINER_LOADS_BY_NAME = { 'container/src/engine/prep-worker.ts': 'onnxruntime-common' };

test("the container's production dependencies are exactly what the server loads", () => {
  const { files, external } = reach(['container/src/main.ts']);
  const byName = Object.entries(CONTAINER_LOADS_BY_NAME).map(([file, pkg]) => {
    expect(files.has(file) && readFileSync(join(ROOT, file), 'utf8').includes(`'${pkg}'`)).toBe(true);
    return pkg;
  });
  // What the container's own files load (a package loaded by protocol's files is protocol's, below).
  const loadedByContainer = [...external].filter(([, by]) => [...by].some((f) => workspaceOf(f) === 'container'));
  const loaded = new Set([...loadedByContainer.map(([pkg]) => pkg), ...byName, '@kokoro-speech/protocol']);
  expect(Object.keys(manifest('container').dependencies ?? {}).sort()).toEqual([...loaded].sort());
});

test("protocol's production dependencies are exactly what its files in the images load", () => {
  const { external } = reach(IMAGES.flatMap((image) => image.entries));
  const loaded = [...external].filter(([, by]) => [...by].some((f) => workspaceOf(f) === 'protocol'));
  expect(Object.keys(manifest('protocol').dependencies ?? {}).sort()).toEqual(loaded.map(([pkg]) => pkg).sort());
});

// Which workspace may import which (shipped code; tests may use test doubles of any lower layer).
const ALLOWED: Record<string, string[]> = {
  protocol: [],
  sagemaker: ['protocol'],
  container: ['protocol'],
  weights: ['protocol'],
  runtime: ['protocol', 'sagemaker'],
  local: ['protocol', 'sagemaker', 'container', 'runtime', 'weights'],
  stacks: ['protocol', 'weights'],
  'integrations/livekit': ['protocol', 'sagemaker', 'runtime'],
};

function workspaceImports(file: string): { spec: string; workspace: string; line: number }[] {
  return specifiers(readFileSync(join(ROOT, file), 'utf8')).flatMap(({ spec, line }) => {
    const pkg = packageName(spec);
    const workspace = pkg === null ? undefined : WORKSPACES.get(pkg);
    return workspace ? [{ spec, workspace, line }] : [];
  });
}

test('every workspace is in the layer table', () => {
  expect([...WORKSPACES.values()].sort()).toEqual(Object.keys(ALLOWED).sort());
});

test.each(Object.entries(ALLOWED))('%s imports only the workspaces below it', (workspace, allowed) => {
  const wrong = sources(workspace, { tests: false }).flatMap((file) =>
    workspaceImports(file)
      .filter((i) => i.workspace !== workspace && !allowed.includes(i.workspace))
      .map((i) => `${file}:${i.line} imports ${i.spec}`),
  );
  expect(wrong).toEqual([]);
});

test("the agent's code reaches only the SageMaker client, never the router", () => {
  const wrong = sources('runtime', { tests: false }).flatMap((file) =>
    workspaceImports(file)
      .filter((i) => i.spec.startsWith('@kokoro-speech/sagemaker/'))
      .map((i) => `${file}:${i.line} imports ${i.spec}`),
  );
  expect(wrong).toEqual([]);
});

// The LiveKit plugin is a library others install: it loads the TTS session layer and the text
// stage of the agent, never its server or its LLM code, and declares every package it loads
// (LiveKit's own as peers: the caller's copy).
test('the LiveKit plugin loads only the TTS and text stages of the agent, and declares what it loads', () => {
  const { files, external } = reach(['integrations/livekit/src/index.ts']);
  const runtime = [...files].filter((f) => workspaceOf(f) === 'runtime');
  expect(runtime.length).toBeGreaterThan(0);
  expect(runtime.filter((f) => !/^runtime\/src\/(tts|text|config)\//.test(f))).toEqual([]);
  expect([...files].filter(isTestCode)).toEqual([]);
  const m = manifest('integrations/livekit');
  const declared = { ...m.dependencies, ...(m as { peerDependencies?: Record<string, string> }).peerDependencies };
  const undeclared = [...external].flatMap(([pkg, by]) =>
    [...by].filter((f) => workspaceOf(f) === 'integrations/livekit' && !declared[pkg]).map((f) => `${f} loads ${pkg}`),
  );
  expect(undeclared).toEqual([]);
});

// Inside the agent, data flows one way: config -> llm/text/tts/tools/audio -> conversation -> pipeline -> server -> the entry files.
// observability/ (a turn's trace and metrics) sits beside the stages: the pipeline and the server call it.
// A conversation is the LLM's side of a turn (one Strands agent per session, its tools): the
// pipeline reads its answer. config/ is the bottom: the agent's defaults, its variables and what
// each accepts, and the built-in tools' names, which the server, the tools and the echo model all
// read (the entry file config.ts composes the whole configuration from the layers).
const RUNTIME_LAYERS: Record<string, string[]> = {
  config: [],
  llm: ['config'],
  text: ['config'],
  tts: ['config'],
  stt: ['config', 'tts'], // the TTS layer's event queue carries its events too
  tools: ['config'],
  audio: ['config'],
  observability: ['config', 'tts'],
  conversation: ['config', 'llm', 'tools'],
  pipeline: ['config', 'llm', 'text', 'tts', 'tools', 'conversation', 'audio', 'observability'],
  // A voice session (speech in) hears the caller through the STT and the VAD; the server runs its turns.
  voice: ['config', 'stt'],
  server: ['config', 'pipeline', 'conversation', 'tools', 'llm', 'text', 'tts', 'stt', 'voice', 'observability'],
};

test("every folder of the agent's code is in its layer table", () => {
  const folders = readdirSync(join(ROOT, 'runtime/src'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'testing')
    .map((d) => d.name);
  expect(folders.sort()).toEqual(Object.keys(RUNTIME_LAYERS).sort());
});

test.each(Object.entries(RUNTIME_LAYERS))('runtime/src/%s imports only the layers below it', (folder, allowed) => {
  const wrong = sources(`runtime/src/${folder}`, { tests: false }).flatMap((file) =>
    specifiers(readFileSync(join(ROOT, file), 'utf8'))
      .filter(({ spec }) => spec.startsWith('..'))
      .map(({ spec, line }) => ({ target: join(file, '..', spec).split('/')[2] ?? '', spec, line }))
      .filter(({ target }) => target !== folder && !allowed.includes(target))
      .map(({ spec, line }) => `${file}:${line} imports ${spec}`),
  );
  expect(wrong).toEqual([]);
});

test('the checker sees what it must: a type-only import loads nothing, a dynamic import and a worker do', () => {
  const found = specifiers(
    [
      "import type { A } from './a.ts';",
      "import { type B } from './b.ts';",
      "export type { C } from './c.ts';",
      "export * from './d.ts';",
      "const e = await import('./e.ts');",
      "new Worker(new URL('./f.ts', import.meta.url));",
      "import {\n  g,\n  h,\n} from 'pkg/sub';",
    ].join('\n'),
  ).map((s) => s.spec);
  expect(found.sort()).toEqual(['./b.ts', './d.ts', './e.ts', './f.ts', 'pkg/sub']);
  const context = dockerContext('runtime/Dockerfile.dockerignore');
  expect(context('runtime/src/main.ts')).toBe(true);
  expect(context('runtime/src/main.test.ts')).toBe(false);
  expect(context('runtime/src/testing/harness.ts')).toBe(false);
  expect(context('local/src/stack/main.ts')).toBe(false);
  expect(context('sagemaker/src/router/router.ts')).toBe(false);
});
