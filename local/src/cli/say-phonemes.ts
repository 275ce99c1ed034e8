// `npm run say -- --phonemes "text" [--ssml] [--voice ID] [--container URL]`: the phonemes and
// token ids a Kokoro container would speak the text with (its POST /v1/phonemize, after the
// lexicon, inline [word](/phonemes/) and SSML), to find and fix a pronunciation. It asks the
// container named by --container, else the local stack's relay (POST /api/phonemize on the page's
// server, which knows where its container listens).
import { phonemizeResponseSchema, type PhonemizeResponse } from '@kokoro-speech/protocol';
import { UsageError } from './say-messages.ts';

/** Where the phonemes are asked for: a container's own route, or the local page server's relay. */
export function phonemizeUrl(target: string, container: string | undefined): URL {
  const url = URL.parse(container ?? target);
  if (url?.protocol === 'http:' || url?.protocol === 'https:') {
    return new URL(container === undefined ? '/api/phonemize' : '/v1/phonemize', url);
  }
  throw new UsageError(
    container === undefined
      ? `--phonemes asks a Kokoro container: give --container URL (the target ${JSON.stringify(target)} is not a local server)`
      : `--container must be an http(s) URL, not ${JSON.stringify(container)}`,
  );
}

export async function fetchPhonemes(
  url: URL,
  request: { text: string; voice?: string; ssml?: boolean },
): Promise<PhonemizeResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (!res.ok) {
    const why = body?.error ? `${body.error.code ?? res.status}: ${body.error.message}` : `HTTP ${res.status}`;
    throw new Error(`${url.origin} refused the text (${why})`);
  }
  return phonemizeResponseSchema.parse(body);
}

/** The phonemes, the tokens, and each piece (pauses and rates shown) when there is more than one. */
export function formatPhonemes(answer: PhonemizeResponse): string {
  const lines = [`phonemes: ${answer.phonemes}`, `tokens:   ${answer.tokens.join(' ')}`];
  if (answer.pieces.length > 1) {
    lines.push('pieces (one model run each):');
    answer.pieces.forEach((p, i) => {
      const rate = p.rate === undefined ? '' : ` (rate ${p.rate})`;
      lines.push(
        p.pause_ms !== undefined
          ? `  ${i + 1}. pause ${p.pause_ms} ms`
          : `  ${i + 1}. ${JSON.stringify(p.text)} -> ${p.phonemes} (${p.tokens.length} tokens)${rate}`,
      );
    });
  }
  lines.push(`language ${answer.language}${answer.voice ? `, voice ${answer.voice}` : ''}`);
  return lines.join('\n');
}
