// Parses one WebSocket message (text or binary frame: SageMaker may deliver JSON in either) into
// a validated protocol v1 client message, or a SpeechError naming the problem.
import { clientMessageSchema, type ClientMessage } from '@kokoro-speech/protocol';
import { errorMessage } from '@kokoro-speech/protocol/errors';
import { SpeechError } from '../tts/errors.ts';

const TYPES = ['config', 'text', 'cancel', 'end'];
const utf8 = new TextDecoder('utf-8', { fatal: true });

export class MessageError extends SpeechError {
  /** The id of the text message at fault, when it named one. */
  readonly id: string | null;

  constructor(message: string, id: string | null = null, code: SpeechError['code'] = 'invalid_message') {
    super(code, message);
    this.id = id;
  }
}

export function parseClientMessage(data: Buffer, maxBytes: number): ClientMessage {
  if (data.length > maxBytes) {
    throw new MessageError(`message is ${data.length} bytes; the limit is ${maxBytes} (MAX_WS_MESSAGE_BYTES)`);
  }
  let text: string;
  try {
    text = utf8.decode(data);
  } catch {
    throw new MessageError('message is not valid UTF-8 (audio is never sent by clients; send JSON)');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MessageError(`malformed JSON: ${errorMessage(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MessageError('expected a JSON object with a "type" field');
  }
  const record = value as Record<string, unknown>;
  const id = record.type === 'text' && typeof record.id === 'string' ? record.id : null;
  if (typeof record.type !== 'string' || !TYPES.includes(record.type)) {
    throw new MessageError(
      `unknown message type ${JSON.stringify(record.type ?? null)}; expected one of ${TYPES.join(', ')}`,
    );
  }
  const parsed = clientMessageSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    throw new MessageError(`invalid ${record.type} message: ${issues}`, id);
  }
  return parsed.data;
}
