// `say --audio FILE`: the WAV file read and made the 16 kHz mono PCM a voice session takes; a file
// that is missing or not a PCM WAV is the user's mistake (usage, exit 2), named with the file.
import { readFile } from 'node:fs/promises';
import { readWav, toVoicePcm } from '../caller/wav-input.ts';
import { UsageError } from './say-messages.ts';
import { errorMessage } from '@kokoro-speech/protocol/errors';

export async function readVoiceFile(path: string): Promise<Int16Array> {
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch (error) {
    throw new UsageError(`--audio ${path}: cannot read it (${errorMessage(error)})`);
  }
  try {
    return toVoicePcm(readWav(file));
  } catch (error) {
    throw new UsageError(`--audio ${path}: ${errorMessage(error)}`);
  }
}
