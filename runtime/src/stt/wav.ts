// A 16-bit mono PCM WAV file for one utterance (what an OpenAI-compatible transcription server
// takes as `file`). The canonical 44-byte RIFF header; written here because the agent ships
// without the container's and the CLI's WAV code.

export function pcmToWav(pcm: Int16Array, sampleRate: number): Buffer {
  const data = pcm.length * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(data, 40);
  for (let i = 0; i < pcm.length; i++) out.writeInt16LE(pcm[i]!, 44 + i * 2);
  return out;
}
