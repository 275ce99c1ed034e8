// The browser half of the transport benchmark: the page in Debian's Chromium asks the same prompt
// over each transport and reads, from its own timeline, when the first audio arrived and when the
// first sound played; then it stops the turn (barge-in) and asks again.
import { hasChromium, launchChromium } from '../src/testing/chromium.ts';
/** A transport and an audio format. */
export type Case = 'sse/pcm' | 'ws/pcm' | 'sse/opus' | 'ws/opus';

export interface PageTiming {
  firstText: number;
  firstAudio: number;
  firstSound: number;
  /** Audio bytes the page received per second of the audio they carry (payload: base64 decoded). */
  bytesPerAudioS: number;
}

declare const window: {
  kokoro: {
    turns(): {
      n: number;
      firstTextAt: number | null;
      sampleRate?: number;
      sentences: { firstAudioAt: number | null; playStart: number | null; wireBytes?: number; samples: number }[];
    }[];
  };
};

/** Null when there is no Chromium here. `order` takes turns between cases; the first turn of each is a warm-up. */
export async function measureInBrowser(
  url: URL,
  prompt: string,
  order: Case[],
): Promise<Record<Case, PageTiming[]> | null> {
  if (!hasChromium()) return null;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(url.toString());
    const out: Record<Case, PageTiming[]> = { 'sse/pcm': [], 'ws/pcm': [], 'sse/opus': [], 'ws/opus': [] };
    const seen: Record<Case, number> = { 'sse/pcm': 0, 'ws/pcm': 0, 'sse/opus': 0, 'ws/opus': 0 };
    for (const [i, c] of order.entries()) {
      const [transport, format] = c.split('/') as ['sse' | 'ws', 'pcm' | 'opus'];
      await page.locator(`label[for=t-${transport}]`).click();
      await page.locator(`label[for=f-${format}]`).click();
      await page.locator('#prompt').fill(prompt);
      await page.locator('#prompt').press('Enter');
      await page.waitForFunction(
        (n) => window.kokoro.turns().find((t) => t.n === n)?.sentences[0]?.playStart != null,
        i + 1,
        {
          timeout: 30_000,
        },
      );
      // Let the first sentence's audio arrive in full (its bytes per second are counted), then stop.
      await page.waitForFunction((n) => window.kokoro.turns().find((t) => t.n === n)?.sentences[1] != null, i + 1, {
        timeout: 30_000,
      });
      const t = await page.evaluate((n) => {
        const turn = window.kokoro.turns().find((x) => x.n === n)!; // the page keeps its last 30 turns
        const s = turn.sentences[0]!;
        return {
          firstText: turn.firstTextAt!,
          firstAudio: s.firstAudioAt!,
          firstSound: s.playStart!,
          bytesPerAudioS: (s.wireBytes ?? 0) / (s.samples / (turn.sampleRate ?? 24000)),
        };
      }, i + 1);
      await page.locator('#stop').click();
      if (seen[c]++ > 0) out[c].push(t);
    }
    return out;
  } finally {
    await browser.close();
  }
}
