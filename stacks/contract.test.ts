// The cross-stack contract in one place: every output a consumer program reads through a
// StackReference must be exported by the producer program, and each producer exports exactly the
// names listed in shared/outputs.ts. Renaming an output on either side fails here. (Each stack's
// own test checks the same at run time under mocks; this one reads the sources of all of them.)
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from '@jest/globals';
import {
  agentRuntimeOutputs,
  endpointOutputs,
  foundationOutputs,
  modelCacheOutputs,
  projectNames,
  siteOutputs,
  webOutputs,
} from './shared/index.ts';

const source = (dir: string): string => {
  const file = new URL(`./${dir}/index.ts`, import.meta.url);
  if (!existsSync(file)) throw new Error(`stack program ${dir}/index.ts is missing`);
  return readFileSync(file, 'utf8');
};

/** Names a program exports: `export const x`, `export { a as x, y }`. */
function exportedNames(code: string): string[] {
  const names = [...code.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);
  for (const block of code.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const part of block[1]!.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.push(name);
    }
  }
  return names.sort();
}

/** Producer project -> output names a program reads from it through `stackRef(key, projectNames.x)`. */
function readsByProject(code: string): Record<string, string[]> {
  const refs = new Map<string, string>();
  for (const m of code.matchAll(/const (\w+) = stackRef\('[\w-]+', projectNames\.(\w+)\)/g)) {
    refs.set(m[1]!, projectNames[m[2] as keyof typeof projectNames]);
  }
  const reads: Record<string, string[]> = {};
  const read = (ref: string, output: string) => {
    const project = refs.get(ref);
    if (project === undefined) throw new Error(`output '${output}' read from '${ref}', which is not a stackRef(...)`);
    (reads[project] ??= []).push(output);
  };
  for (const m of code.matchAll(/(\w+)\.(?:requireOutput|getOutput|requireOutputValue|getOutputValue)\('(\w+)'\)/g)) {
    read(m[1]!, m[2]!);
  }
  // The shared helpers (shared/index.ts) that read a producer's output before any resource.
  for (const m of code.matchAll(/requireProducerOutput\((\w+), '(\w+)'/g)) read(m[1]!, m[2]!);
  for (const m of code.matchAll(/requireFoundationRegion\((\w+)\)/g)) read(m[1]!, 'region');
  return reads;
}

const producers: Record<string, { dir: string; outputs: readonly string[] }> = {
  [projectNames.foundation]: { dir: 'foundation', outputs: foundationOutputs },
  [projectNames.modelCache]: { dir: 'model-cache', outputs: modelCacheOutputs },
  [projectNames.endpoint]: { dir: 'endpoint', outputs: endpointOutputs },
  [projectNames.web]: { dir: 'web', outputs: webOutputs },
  [projectNames.agentRuntime]: { dir: 'agent-runtime', outputs: agentRuntimeOutputs },
  [projectNames.site]: { dir: 'site', outputs: siteOutputs },
};

describe.each(Object.entries(producers))('producer %s', (_project, { dir, outputs }) => {
  test('exports exactly its listed outputs', () => {
    expect(exportedNames(source(dir))).toEqual([...outputs].sort());
  });
});

describe.each(['model-cache', 'endpoint', 'web', 'agent-runtime', 'site'])('consumer %s', (dir) => {
  test('reads only outputs its producers export', () => {
    const reads = readsByProject(source(dir));
    expect(Object.keys(reads).length).toBeGreaterThan(0);
    for (const [project, names] of Object.entries(reads)) {
      const exported = exportedNames(source(producers[project]!.dir));
      for (const name of names)
        expect({ project, name, exported: exported.includes(name) }).toEqual({ project, name, exported: true });
    }
  });
});

describe('the source readers', () => {
  test('find exports and reads, and catch a renamed output', () => {
    const producer = 'export const endpointName = x;\nexport { a as endpointArn, imageUri };\n';
    expect(exportedNames(producer)).toEqual(['endpointArn', 'endpointName', 'imageUri']);
    const consumer =
      "const endpoint = stackRef('endpointStack', projectNames.endpoint);\nendpoint.requireOutput('endpointNam');\n";
    const reads = readsByProject(consumer);
    expect(reads).toEqual({ 'kokoro-endpoint': ['endpointNam'] });
    expect(exportedNames(producer)).not.toContain(reads['kokoro-endpoint']![0]);
    expect(() => readsByProject("other.requireOutput('x')")).toThrow(/not a stackRef/);
    const helpers =
      "const f = stackRef('foundationStack', projectNames.foundation);\nconst m = stackRef('modelCacheStack', projectNames.modelCache);\n" +
      "await requireFoundationRegion(f);\nawait requireProducerOutput(m, 'include', 'x');\n";
    expect(readsByProject(helpers)).toEqual({ 'kokoro-foundation': ['region'], 'kokoro-model-cache': ['include'] });
  });
});
