// Runs the CrossGuard pack over the resources a mocked program registered, so each stack test can
// assert that its own stack passes the project's policies.
import type {
  Policy,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import { policies } from '../policy/policies.ts';
import type { RecordedResource } from './mocks.ts';

export interface Violation {
  policy: string;
  resource: string;
  message: string;
}

/** Resource validation args as the engine would pass them; config comes from each policy's schema defaults. */
export function resourceArgs(
  type: string,
  props: Record<string, any>,
  config: Record<string, unknown> = {},
  name = 'r',
): ResourceValidationArgs {
  return {
    type,
    props,
    urn: `urn:pulumi:dev::test::${type}::${name}`,
    name,
    opts: {} as any,
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T>() => config as T,
    notApplicable: () => {
      throw new Error('not applicable');
    },
  } as unknown as ResourceValidationArgs;
}

/** PolicyResources whose dependencies are inferred from inputs that hold another resource's id. */
export function policyResources(
  recorded: { type: string; name: string; props: Record<string, any>; id?: string }[],
): PolicyResource[] {
  const resources = recorded.map((r) => ({
    type: r.type,
    name: r.name,
    props: r.props,
    urn: `urn:pulumi:dev::test::${r.type}::${r.name}`,
    opts: {},
    dependencies: [] as PolicyResource[],
    propertyDependencies: {},
    isType: () => false,
    asType: () => undefined,
  })) as unknown as PolicyResource[];
  recorded.forEach((r, i) => {
    const values = new Set(Object.values(r.props).filter((v) => typeof v === 'string'));
    resources[i]!.dependencies = resources.filter(
      (_, j) => j !== i && recorded[j]!.id !== undefined && values.has(recorded[j]!.id),
    );
  });
  return resources;
}

export function stackArgs(resources: PolicyResource[]): StackValidationArgs {
  return {
    resources,
    stackTags: new Map(),
    getConfig: <T>() => ({}) as T,
    notApplicable: () => {
      throw new Error('not applicable');
    },
  } as unknown as StackValidationArgs;
}

/** Every violation the pack reports for the recorded resources (resource and stack policies). */
export async function policyViolations(
  recorded: (Pick<RecordedResource, 'type' | 'name' | 'inputs' | 'state'> & { id?: string })[],
): Promise<Violation[]> {
  const found: Violation[] = [];
  const aws = recorded.filter((r) => r.type.startsWith('aws:'));
  for (const policy of policies) {
    if ('validateResource' in policy && policy.validateResource !== undefined) {
      const validators = [(policy as ResourceValidationPolicy).validateResource!].flat();
      for (const r of aws) {
        const report: ReportViolation = (message) =>
          found.push({ policy: policy.name, resource: `${r.type}::${r.name}`, message });
        for (const validate of validators) await validate(resourceArgs(r.type, r.inputs, {}, r.name), report);
      }
    }
    if ('validateStack' in policy) {
      const report: ReportViolation = (message, urn) =>
        found.push({ policy: policy.name, resource: urn ?? 'stack', message });
      const resources = policyResources(
        aws.map((r) => ({ type: r.type, name: r.name, props: r.inputs, id: r.id ?? `${r.name}-id` })),
      );
      await (policy as StackValidationPolicy).validateStack(stackArgs(resources), report);
    }
  }
  return found;
}

/** The pack's policy of this name; throws when there is none. */
export function policyByName(name: string): Policy {
  const policy = policies.find((p) => p.name === name);
  if (policy === undefined) throw new Error(`no policy ${name}`);
  return policy;
}

/** Violations one resource policy reports for one resource. */
export async function checkResource(
  name: string,
  type: string,
  props: Record<string, any>,
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const messages: string[] = [];
  const validate = (policyByName(name) as ResourceValidationPolicy).validateResource as (
    a: any,
    r: any,
  ) => Promise<void> | void;
  await validate(resourceArgs(type, props, config), (m: string) => messages.push(m));
  return messages;
}

/** A policy document of these statements, as the JSON string a resource holds it in. */
export const policyDocumentJson = (...Statement: object[]): string =>
  JSON.stringify({ Version: '2012-10-17', Statement });
