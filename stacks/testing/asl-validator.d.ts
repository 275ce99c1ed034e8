// Types for asl-validator 4 (it ships none): the default export validates one definition.
declare module 'asl-validator' {
  interface ValidationResult {
    isValid: boolean;
    errors: { message?: string }[];
    errorsText(separator?: string): string;
  }
  export default function aslValidator(
    definition: unknown,
    options?: { checkPaths?: boolean; checkArn?: boolean },
  ): ValidationResult;
}
