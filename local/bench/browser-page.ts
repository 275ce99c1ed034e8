// The browser half of the transport benchmark: the page in Debian's Chromium asks the same prompt
// over each transport and reads, from its own timeline, when the first audio arrived and when the
// first sound played; then it stops the turn (barge-in) and asks again.
import { hasChromium, launchChromium } from '../src/testing/chromium.ts';
import type { Transport } from '../src/caller/turn-client.ts';

export interface PageTiming {
  firstText: number;
  firstAudio: number;
  firstSound: number;
}

declare const window: {
  kokoro: {
    turns(): { firstTextAt: number | null; sentences: { firstAudioAt: number | null; playStart: number | null }[] }[];
  };
};

/** Null when there is no Chromium here. `order` alternates transports; the first turn of each is a warm-up. */
export async function measureInBrowser(
  url: URL,
  prompt: string,
  order: Transport[],
): Promise<Record<Transport, PageTiming[]> | null> {
  if (!hasChromium()) return null;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(url.toString());
    const out: Record<Transport, PageTiming[]> = { sse: [], ws: [] };
    const seen = { sse: 0, ws: 0 };
    for (const [i, transport] of order.entries()) {
      await page.locator(`label[for=t-${transport}]`).click();
      await page.locator('#prompt').fill(prompt);
      await page.locator('#prompt').press('Enter');
      await page.waitForFunction((n) => window.kokoro.turns()[n]?.sentences[0]?.playStart != null, i, {
        timeout: 30_000,
      });
      const t = await page.evaluate((n) => {
        const turn = window.kokoro.turns()[n]!;
        return {
          firstText: turn.firstTextAt!,
          firstAudio: turn.sentences[0]!.firstAudioAt!,
          firstSound: turn.sentences[0]!.playStart!,
        };
      }, i);
      await page.locator('#stop').click();
      if (seen[transport]++ > 0) out[transport].push(t);
    }
    return out;
  } finally {
    await browser.close();
  }
}
