// Utterance ids: generated ones are short and unique; given ones must fit protocol v1 (1-128 chars).
import { randomBytes } from 'node:crypto';

let counter = 0;

export function newUtteranceId(): string {
  counter = (counter + 1) % 1e9;
  return `u${counter}-${randomBytes(4).toString('hex')}`;
}

export function checkUtteranceId(id: string): string {
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) {
    throw new TypeError(`utterance id must be a string of 1 to 128 characters, got ${JSON.stringify(id)}`);
  }
  return id;
}

/** The id of a new utterance of a session: the given one (checked) or a generated one, not in use. */
export function claimUtteranceId(id: string | undefined, inUse: (id: string) => boolean): string {
  const utteranceId = id === undefined ? newUtteranceId() : checkUtteranceId(id);
  if (inUse(utteranceId)) throw new Error(`utterance id ${utteranceId} is already in use`);
  return utteranceId;
}
