// One attempt of a stream (LiveKit's run()): a Kokoro session that speaks every utterance of the
// ledger not yet done, pipelined, as the input side adds them, and turns the session's events into
// frames. The session layer under it re-opens a broken stream and retries a refusal; what it cannot
// ride out ends the attempt with LiveKit's error.
import { voiceProblem, voiceSyntaxProblem, type VoiceInfo } from '@kokoro-speech/protocol';
import type { TtsSession, TtsTransport, VoiceSettings } from '@kokoro-speech/runtime/tts';
import { KokoroTtsError, toApiError } from './errors.ts';
import { FrameEmitter } from './frame-emitter.ts';
import type { EmitterOptions } from './frame-emitter.ts';
import { languageMatches, voiceLanguage } from './languages.ts';
import type { Ledger, Utterance } from './ledger.ts';

export interface AttemptOptions extends EmitterOptions {
  transport: TtsTransport;
  voice: string | undefined;
  speed: number;
  language: string | undefined;
  ledger: Ledger;
  /** The stream's abort (close()): the attempt ends at once, quietly. */
  signal: AbortSignal;
  /** Called right before each utterance is sent (LiveKit's markStarted, for TTFB). */
  sending: (u: Utterance) => void;
  /** A rerun speaks only what is not done (a stream); false: it starts over (synthesize()), so
   *  any audio delivered forbids it. */
  resumes: boolean;
}

/** Resolves once every utterance is done and the input has ended (or the stream was closed). */
export async function runAttempt(o: AttemptOptions): Promise<void> {
  if (o.ledger.ended && o.ledger.utterances.every((u) => u.state !== 'pending')) return; // nothing to say
  const settings: VoiceSettings = {
    ...(o.voice !== undefined && { voice: o.voice }),
    speed: o.speed,
    format: 'pcm_s16le',
    sample_rate: o.sampleRate as VoiceSettings['sample_rate'],
  };
  // Stops both loops when either fails, or when the stream is closed.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  o.signal.addEventListener('abort', onAbort, { once: true });
  const emitter = new FrameEmitter(o.ledger, o);
  let session: TtsSession | undefined;
  try {
    session = await o.transport.open(settings, stop.signal);
    stop.signal.addEventListener('abort', () => session?.close(), { once: true });
    checkVoice(await session.ready, o.voice, o.language);
    const s = session;
    const failed = (error: unknown) => {
      stop.abort();
      throw error;
    };
    await Promise.all([speak(s, o, emitter, stop.signal).catch(failed), consume(s, emitter).catch(failed)]);
  } catch (error) {
    if (o.signal.aborted) return;
    emitter.flush();
    throw toApiError(error, o.resumes ? o.ledger.partial : emitter.delivered > 0);
  } finally {
    o.signal.removeEventListener('abort', onAbort);
    session?.close();
  }
}

async function speak(session: TtsSession, o: AttemptOptions, emitter: FrameEmitter, stop: AbortSignal): Promise<void> {
  let next = 0;
  for (;;) {
    if (stop.aborted) return;
    while (next < o.ledger.utterances.length) {
      const u = o.ledger.utterances[next++]!;
      if (u.state !== 'pending') continue;
      emitter.track(u);
      o.sending(u);
      session.speak(u.text.spoken, u.id);
    }
    if (o.ledger.ended) break;
    await o.ledger.changed(stop);
  }
  await session.end();
}

async function consume(session: TtsSession, emitter: FrameEmitter): Promise<void> {
  for await (const event of session.events()) emitter.handle(event);
}

/** A voice (or a part of a blend) the endpoint lacks, or of another language than asked, fails before any text is sent. */
function checkVoice(
  ready: { voices: string[]; voice_info?: VoiceInfo[] },
  voice: string | undefined,
  language: string | undefined,
): void {
  if (voice === undefined) return;
  const problem = ready.voices.length > 0 ? voiceProblem(voice, ready.voices) : voiceSyntaxProblem(voice);
  if (problem?.code === 'unknown_voice') {
    const some = ready.voices.slice(0, 8).join(', ');
    const blend = problem.voice !== voice ? ` (in the blend ${JSON.stringify(voice)})` : '';
    throw new KokoroTtsError(
      'unknown_voice',
      `voice ${JSON.stringify(problem.voice)}${blend} is not one of this endpoint's ${ready.voices.length} voices (${some}${ready.voices.length > 8 ? ', ...' : ''})`,
    );
  }
  if (problem) throw new KokoroTtsError('unknown_voice', problem.message);
  const spoken = voiceLanguage(voice, ready.voice_info);
  if (language !== undefined && !languageMatches(language, spoken))
    throw new KokoroTtsError(
      'language_mismatch',
      `voice ${voice} speaks ${spoken}, not the language asked (${language})`,
    );
}
