// The constraints AWS's Smithy model puts on InvokeEndpointWithBidirectionalStream's input
// (sagemaker-runtime-http2.json in aws/aws-sdk-js-v3, read on 2026-12-01): one table that the
// client checks before sending and the local router enforces on arrival, with one message format
// that names the header. Smithy semantics: `length` counts Unicode code points; `pattern` is an
// ECMA-262 regex that is NOT implicitly anchored, so the model's EndpointName and TargetVariant
// patterns (no trailing `$`) constrain only how the value begins.

export interface BidiInput {
  endpointName: string;
  targetVariant?: string | undefined;
  modelInvocationPath?: string | undefined;
  modelQueryString?: string | undefined;
}

interface Constraint {
  /** Where the member travels: the URI label or its HTTP header. */
  where: string;
  max: number;
  pattern: RegExp;
}

export const BIDI_INPUT_CONSTRAINTS: Record<keyof BidiInput, Constraint> = {
  endpointName: { where: 'EndpointName (the URI label)', max: 63, pattern: /^[a-zA-Z0-9](-*[a-zA-Z0-9])*/ },
  targetVariant: { where: 'X-Amzn-SageMaker-Target-Variant', max: 63, pattern: /^[a-zA-Z0-9](-*[a-zA-Z0-9])*/ },
  modelInvocationPath: {
    where: 'X-Amzn-SageMaker-Model-Invocation-Path',
    max: 100,
    pattern: /^[A-Za-z0-9\-._]+(?:\/[A-Za-z0-9\-._]+)*$/,
  },
  modelQueryString: {
    where: 'X-Amzn-SageMaker-Model-Query-String',
    max: 2048,
    pattern:
      /^[a-zA-Z0-9][A-Za-z0-9_-]*=(?:[A-Za-z0-9._~\-]|%[0-9A-Fa-f]{2})+(?:&[a-zA-Z0-9][A-Za-z0-9_-]*=(?:[A-Za-z0-9._~\-]|%[0-9A-Fa-f]{2})+)*$/,
  },
};

/** The default container path, sent explicitly (docs/design/sagemaker-contracts.md#the-invocation-path). */
export const DEFAULT_MODEL_INVOCATION_PATH = 'invocations-bidirectional-stream';

export interface InputViolation {
  member: keyof BidiInput;
  message: string;
}

/** The first member that breaks the model's constraints, or null. Absent optional members pass. */
export function checkBidiInput(input: BidiInput): InputViolation | null {
  for (const member of Object.keys(BIDI_INPUT_CONSTRAINTS) as Array<keyof BidiInput>) {
    const value = input[member];
    if (value === undefined) continue;
    const { where, max, pattern } = BIDI_INPUT_CONSTRAINTS[member];
    const length = [...value].length;
    if (length > max)
      return { member, message: `${where} is ${length} characters long, over the model's maximum of ${max}` };
    if (!pattern.test(value)) {
      const hint = member === 'modelInvocationPath' && value.startsWith('/') ? ' (no leading /)' : '';
      return {
        member,
        message: `${where} ${JSON.stringify(value)} does not match the model's pattern ${pattern.source}${hint}`,
      };
    }
  }
  return null;
}
