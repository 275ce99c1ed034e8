// Reads IAM policy documents out of resource properties (JSON strings or objects, inline or
// attached) and finds the statements CrossGuard must refuse.

export interface IamStatement {
  Sid?: string;
  Effect?: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** Policy-bearing properties by resource type (inline role policies are an array of {policy}; CloudWatch Logs resource policies too). */
const policyProps: Record<string, (props: Record<string, any>) => unknown[]> = {
  'aws:iam/rolePolicy:RolePolicy': (p) => [p.policy],
  'aws:iam/policy:Policy': (p) => [p.policy],
  'aws:iam/userPolicy:UserPolicy': (p) => [p.policy],
  'aws:iam/groupPolicy:GroupPolicy': (p) => [p.policy],
  'aws:cloudwatch/logResourcePolicy:LogResourcePolicy': (p) => [p.policyDocument],
  'aws:iam/role:Role': (p) => (Array.isArray(p.inlinePolicies) ? p.inlinePolicies.map((i: any) => i?.policy) : []),
};

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Every statement of every IAM policy document on the resource; unknown (preview) values are skipped. */
export function iamStatements(type: string, props: Record<string, any>): IamStatement[] {
  const read = policyProps[type];
  if (read === undefined) return [];
  return read(props).flatMap((doc) => {
    const parsed = typeof doc === 'string' ? safeParse(doc) : doc;
    if (parsed === null || typeof parsed !== 'object') return [];
    const statements = (parsed as { Statement?: unknown }).Statement;
    return (Array.isArray(statements) ? statements : statements ? [statements] : []) as IamStatement[];
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Allow statements whose actions are `*` or `service:*`, or that allow everything but a NotAction list. */
export function wildcardActionStatements(statements: IamStatement[]): IamStatement[] {
  return statements.filter(
    (s) =>
      s.Effect === 'Allow' &&
      (s.NotAction !== undefined || list(s.Action).some((a) => a === '*' || /^[\w-]+:\*$/.test(a))),
  );
}

/**
 * What a role needs to set up a state machine's CloudWatch Logs delivery. AWS documents these on
 * "*" only (log delivery has no resource-level permissions): the model-cache state machine's role
 * uses them, and the GitOps deploy role, which creates that state machine (both through
 * ../shared/iam.ts; the list lives here because the policy pack is packed on its own).
 */
export const logDeliveryActions = [
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
];

/**
 * Actions that have no resource-level permissions in IAM, so `Resource: "*"` is the only option.
 * Everything else is "sensitive": it must name ARNs.
 */
export const actionsWithoutResourceScope = new Set([
  'ecr:GetAuthorizationToken',
  'cloudwatch:PutMetricData',
  'xray:PutTraceSegments',
  'xray:PutSpans',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  ...logDeliveryActions,
  'sts:GetCallerIdentity',
  // Amazon Transcribe streaming: the service authorization reference lists no resource types for it.
  'transcribe:StartStreamTranscription',
]);

/** Allowed actions that a statement grants on `*` although they could be scoped to ARNs. */
export function unscopedSensitiveActions(statements: IamStatement[]): string[] {
  return statements
    .filter((s) => s.Effect === 'Allow' && (list(s.Resource).includes('*') || s.NotResource !== undefined))
    .flatMap((s) => list(s.Action).filter((a) => !actionsWithoutResourceScope.has(a)));
}
