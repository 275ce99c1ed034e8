// Every Pulumi project file: the right name, a `main` that exists, native-TypeScript runtime
// options, and a declaration for every config key its program reads.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { projectNames } from './shared/index.ts';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
// minKeys: how many keys the reader must find in the program at least (a check on the reader).
const projects = [
  { file: 'stacks/foundation/Pulumi.yaml', name: projectNames.foundation, minKeys: 5 },
  { file: 'stacks/model-cache/Pulumi.yaml', name: projectNames.modelCache, minKeys: 5 },
  { file: 'stacks/endpoint/Pulumi.yaml', name: projectNames.endpoint, minKeys: 5 },
  { file: 'stacks/web/Pulumi.yaml', name: projectNames.web, minKeys: 5 },
  { file: 'stacks/agent-runtime/Pulumi.yaml', name: projectNames.agentRuntime, minKeys: 5 },
  { file: 'stacks/site/Pulumi.yaml', name: projectNames.site, minKeys: 3 },
  { file: 'Pulumi.yaml', name: projectNames.gitops, minKeys: 5 },
];

/** Config keys a program reads: config.get('k'), getNumber, getObject, require..., intSetting/numberSetting/retentionDaysSetting/required(config, 'k'). */
function keysRead(source: string): string[] {
  const keys = new Set<string>();
  for (const m of source.matchAll(
    /config\.(?:get|getNumber|getBoolean|getObject|require|requireNumber)(?:<[^>]*>)?\('([\w-]+)'/g,
  ))
    keys.add(m[1]!);
  for (const m of source.matchAll(/(?:intSetting|numberSetting|retentionDaysSetting|required)\(config, '([\w-]+)'/g))
    keys.add(m[1]!);
  for (const m of source.matchAll(/stackRef\('([\w-]+)'/g)) keys.add(m[1]!);
  return [...keys].sort();
}

// A layer whose files another change has not landed yet is skipped rather than failed.
describe.each(projects.filter((p) => existsSync(join(repoRoot, p.file))))('$file', ({ file, name, minKeys }) => {
  const project = parse(readFileSync(join(repoRoot, file), 'utf8'));
  const main = join(repoRoot, dirname(file), project.main);
  const stackFile = join(repoRoot, dirname(file), 'Pulumi.dev.yaml');

  test('names the project and runs main natively as TypeScript', () => {
    expect(project.name).toBe(name);
    expect(project.runtime).toEqual({ name: 'nodejs', options: { typescript: false, packagemanager: 'npm' } });
    expect(main.endsWith('.ts') && existsSync(main)).toBe(true);
  });

  test('declares every config key the program reads, and the dev stack sets only declared keys', () => {
    const declared = Object.keys(project.config).filter((k) => !k.includes(':'));
    const source = [main, ...['agent-runtime.ts', 'settings.ts'].map((f) => join(dirname(main), f)).filter(existsSync)]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(keysRead(source).length).toBeGreaterThanOrEqual(minKeys);
    expect(declared.sort()).toEqual(expect.arrayContaining(keysRead(source)));
    const devKeys = Object.keys(parse(readFileSync(stackFile, 'utf8')).config);
    for (const key of devKeys) {
      const [namespace, short] = key.split(':');
      if (namespace === name) expect(declared).toContain(short);
      else expect(namespace).toBe('aws');
    }
  });
});
