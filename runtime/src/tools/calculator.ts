// A units-free arithmetic evaluator for the `calculate` built-in tool: numbers, + - * / % ^,
// parentheses, unary minus. Hand-written (a small recursive-descent parser, no eval): the general
// expression libraries bring a whole algebra system (mathjs) or have had code-injection advisories
// (expr-eval), while the tool needs only arithmetic and a clear error for anything else.
import { KokoroError } from '@kokoro-speech/protocol/errors';

export class CalculationError extends KokoroError<'calculation'> {
  constructor(message: string) {
    super('calculation', message);
  }
}

const MAX_LENGTH = 500;

export function calculate(expression: string): number {
  if (expression.length > MAX_LENGTH) throw new CalculationError(`expression is longer than ${MAX_LENGTH} characters`);
  const tokens = tokenize(expression);
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];

  // expr := term (('+' | '-') term)*; term := unary (('*' | '/' | '%') unary)*;
  // unary := ('-' | '+') unary | power; power := atom ('^' unary)?; atom := number | '(' expr ')'
  // (so -2^2 is -4 and 2^3^2 is 512, as in mathematics)
  const expr = (): number => {
    let value = term();
    while (peek() === '+' || peek() === '-') value = take() === '+' ? value + term() : value - term();
    return value;
  };
  const term = (): number => {
    let value = unary();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      take();
      const right = unary();
      if ((op === '/' || op === '%') && right === 0) throw new CalculationError('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const unary = (): number => {
    if (peek() === '-') return (take(), -unary());
    if (peek() === '+') return (take(), unary());
    return power();
  };
  const power = (): number => {
    const base = atom();
    if (peek() !== '^') return base;
    take();
    return base ** unary();
  };
  const atom = (): number => {
    const token = take();
    if (typeof token === 'number') return token;
    if (token === '(') {
      const value = expr();
      if (take() !== ')') throw new CalculationError('a parenthesis is not closed');
      return value;
    }
    throw new CalculationError(token === undefined ? 'the expression ends too early' : `unexpected "${token}"`);
  };

  const value = expr();
  if (at < tokens.length) throw new CalculationError(`unexpected "${String(tokens[at])}"`);
  if (!Number.isFinite(value)) throw new CalculationError('the result is not a finite number');
  return value;
}

function tokenize(text: string): (number | string)[] {
  const tokens: (number | string)[] = [];
  const pattern = /\s*(?:(\d+(?:[.,]\d+)*(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+)|([-+*/%^()×÷]))/giy;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (!m)
      throw new CalculationError(
        `cannot read "${text.slice(at).trim().slice(0, 20)}" (only numbers and + - * / % ^ ( ))`,
      );
    at = pattern.lastIndex;
    if (m[1] !== undefined) tokens.push(Number(m[1].replace(/,(?=\d{3}\b)/g, '')));
    else tokens.push(m[2] === '×' ? '*' : m[2] === '÷' ? '/' : m[2]!);
  }
  for (const t of tokens)
    if (typeof t === 'number' && Number.isNaN(t)) throw new CalculationError('a number is malformed');
  return tokens;
}
