// The page in Debian's Chromium (playwright-core), against the real local stack on loopback
// (stand-in model, echo LLM): each transport streams text and plays every sample in order, the
// timeline renders, and barge-in silences the old turn at once with nothing stale played after.
import { expect, test } from '@jest/globals';
import { TurnRecorder } from '../src/caller/timeline.ts';
import { streamTurn } from '../src/caller/turn-client.ts';
// What drives the page, then the suite with its stack, and the texts asked.
import {
  answerText,
  ask,
  openPage,
  pageErrors,
  playedOut,
  report,
  turns,
  until,
  untilDone,
} from '../src/testing/page-driver.ts';
import { browser, LONG, pageSuite, PROMPT, SHORT, stack } from '../src/testing/page-driver.ts';
import type { PageDocument, PageWindow } from '../src/testing/page-driver.ts';

declare const window: PageWindow;
declare const document: PageDocument;

pageSuite('the page in Chromium', () => {
  for (const [transport, format] of [
    ['sse', 'opus'],
    ['ws', 'opus'],
    ['sse', 'pcm'],
    ['ws', 'pcm'],
  ] as const) {
    test(`${transport} ${format}: text streams in, every sample reaches the worklet in order and plays, the timeline renders`, async () => {
      // What the agent sends for this prompt, fetched independently by the Node client.
      const expected = new TurnRecorder();
      for await (const e of streamTurn({
        target: new URL(stack.url),
        transport,
        request: { prompt: PROMPT, format: 'pcm_s16le' },
      }).events)
        expected.add(e);
      expect(expected.sentences.length).toBeGreaterThanOrEqual(3);

      const page = await openPage();
      await ask(page, transport, PROMPT, format);
      await page.waitForFunction(() => document.querySelectorAll('#answer .sentence').length > 0);
      await until(page, 'the turn is done', (_r, t) => t[0]?.doneAt != null);
      // The echo model answers with the prompt: the page shows exactly that text, sentence by sentence.
      expect((await page.locator('#answer').textContent())?.trim()).toBe(PROMPT);
      const [turn] = await turns(page);
      expect(turn!.error).toBeUndefined();
      expect(turn!.sentences.map((s) => s.text)).toEqual(expected.sentences.map((s) => s.text));
      // It streamed in: every delta the agent sends for this answer, one by one, over time.
      expect(expected.textEvents).toBeGreaterThan(5);
      expect(turn!.textEvents).toBe(expected.textEvents);
      expect(turn!.lastTextAt!).toBeGreaterThan(turn!.firstTextAt!);

      // Wait until everything played, then check what the worklet got: each sentence's samples, in order.
      await until(page, 'turn 1 played out', playedOut(1));
      const r = await report(page);
      expect(r.sampleRate).toBe(expected.sampleRate);
      const perSentence = expected.sentences.map((s) => ({ id: s.id, samples: s.audioBytes / 2 }));
      const received = perSentence.map(({ id }) => ({
        id,
        samples: r.received.filter((c) => c.id === id).reduce((n, c) => n + c.samples, 0),
      }));
      expect(received).toEqual(perSentence);
      expect(r.received.every((c) => c.turn === 1)).toBe(true);
      // In order: sentence by sentence, chunks numbered 0, 1, 2... within each.
      const order = r.received.map((c) => `${c.id}#${c.seq}`);
      const sorted = [...r.received]
        .sort(
          (a, b) =>
            perSentence.findIndex((s) => s.id === a.id) - perSentence.findIndex((s) => s.id === b.id) || a.seq - b.seq,
        )
        .map((c) => `${c.id}#${c.seq}`);
      expect(order).toEqual(sorted);
      for (const { id } of perSentence) {
        const seqs = r.received.filter((c) => c.id === id).map((c) => c.seq);
        expect(seqs).toEqual(seqs.map((_, i) => i));
      }
      expect(r.playOrder.map(([, id, seq]) => `${id}#${seq}`)).toEqual(order);
      const totalSamples = perSentence.reduce((n, s) => n + s.samples, 0);
      expect(totalSamples).toBeCloseTo((expected.metrics!.audio_ms * expected.sampleRate!) / 1000, -1);

      // The timeline: a row per sentence (plus the LLM's), with times filled in.
      await page.waitForFunction(() => document.querySelectorAll('#timeline tbody tr').length > 1);
      expect(await page.locator('#timeline tbody tr').count()).toBe(expected.sentences.length + 1);
      await expect(
        page.locator('#timeline .chip', { hasText: 'first sound' }).locator('dd').textContent(),
      ).resolves.toMatch(/^\d+ ms$/);
      await expect(page.locator('#timeline .chip', { hasText: 'via' }).locator('dd').textContent()).resolves.toBe(
        transport === 'ws' ? 'WebSocket' : 'SSE',
      );
      const played = (await turns(page))[0]!.sentences;
      expect(played.every((s) => s.playStart !== null && s.playEnd !== null && s.playEnd >= s.playStart)).toBe(true);
      // The format asked for is the one that came; Opus decoded to exactly the PCM samples (above), gap-free.
      expect((await turns(page))[0]!.format).toBe(format === 'opus' ? 'opus' : 'pcm_s16le');
      // Heard after its audio arrived: on the output's clock, not one that runs ahead of it.
      for (const s of played) {
        expect(s.heardAt!).toBeGreaterThanOrEqual(s.firstAudioAt!);
        expect(s.playStart!).toBeGreaterThanOrEqual(s.firstAudioAt!);
      }
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);
  }

  for (const transport of ['sse', 'ws'] as const) {
    test(`${transport}: barge-in (Stop, then a new prompt) silences the old turn at once; nothing stale plays`, async () => {
      const page = await openPage();
      await ask(page, transport, LONG);
      await until(page, 'turn 1 plays', (r) => (r.played['1'] ?? 0) > 0);
      await page.waitForFunction(() => document.querySelectorAll('#answer .speaking').length === 1);
      await page.locator('#stop').click();
      const atStop = await report(page);
      expect(atStop.buffered).toBe(0);
      expect(await page.locator('#answer .speaking').count()).toBe(0);
      await page.waitForTimeout(300);
      const later = await report(page);
      expect(later.played['1']).toBe(atStop.played['1']); // not one more sample of the stopped turn

      await ask(page, transport, LONG);
      await until(page, 'turn 2 plays', (r) => (r.played['2'] ?? 0) > 0);
      // A new prompt while turn 2 plays interrupts it too.
      await ask(page, transport, SHORT);
      await until(page, 'turn 3 played out', playedOut(3));
      const end = await report(page);
      const all = await turns(page);
      expect(all.map((t) => Boolean(t.cancelled))).toEqual([true, true, false]);
      expect(end.played['1']).toBe(atStop.played['1']);
      // After each barge-in, only the newer turn's audio plays.
      const turnsInPlayOrder = end.playOrder.map(([turn]) => turn);
      expect(turnsInPlayOrder).toEqual([...turnsInPlayOrder].sort((a, b) => a - b));
      expect(end.flushes).toBeGreaterThanOrEqual(2);
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);
  }

  for (const transport of ['sse', 'ws'] as const) {
    test(`${transport}: a conversation: turns stack, the agent remembers, the session is shown, New conversation forgets`, async () => {
      const page = await openPage();
      const sent: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/invocations')) sent.push(r.headers()['x-session-id'] ?? '');
      });
      page.on('websocket', (ws) => sent.push(new URL(ws.url()).searchParams.get('session') ?? ''));
      const session = await page.evaluate(() => window.kokoro.session());
      expect(session).toMatch(/^page-[0-9a-f-]{36}$/);
      await expect(page.locator('#session').textContent()).resolves.toBe(session);

      await ask(page, transport, 'My name is Ada.');
      await until(page, 'turn 1 played out', playedOut(1));
      await ask(page, transport, 'What did I say before?');
      await untilDone(page, 2);
      expect(await answerText(page)).toBe('You said: My name is Ada.');
      // The first turn is stacked above: the prompt, then the answer.
      await expect(page.locator('#conversation li.turn').count()).resolves.toBe(1);
      await expect(page.locator('#conversation li.turn .you').textContent()).resolves.toBe('My name is Ada.');
      await expect(page.locator('#conversation li.turn .answer').textContent()).resolves.toBe('My name is Ada.');
      await expect(page.locator('#you').textContent()).resolves.toBe('What did I say before?');
      expect(new Set(sent)).toEqual(new Set([session]));

      await page.locator('#new-conversation').click();
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'New conversation.');
      const fresh = await page.evaluate(() => window.kokoro.session());
      expect(fresh).not.toBe(session);
      await expect(page.locator('#session').textContent()).resolves.toBe(fresh);
      await expect(page.locator('#conversation li').count()).resolves.toBe(0);
      await ask(page, transport, 'What did I say before?');
      await untilDone(page, 3);
      expect(await answerText(page)).toBe('You have not said anything before.');
      expect(pageErrors.get(page)).toEqual([]);
      await page.close();
    }, 180_000);

    // The page asks for Opus by default; PCM once as well (played_ms counts samples at the stream's rate in both).
    for (const [how, format] of [
      ['Stop', undefined],
      ['a new prompt', undefined],
      ['Stop', 'pcm'],
    ] as const) {
      test(`${transport}${format ? ` ${format}` : ''}: an interruption by ${how} reports the worklet's playback position; the agent keeps what was heard`, async () => {
        const page = await openPage();
        const cancels: { type: string; played_ms?: number }[] = [];
        const bodies: { previous_played_ms?: number; prompt: string }[] = [];
        page.on('websocket', (ws) =>
          ws.on('framesent', (f) => {
            const data = JSON.parse(String(f.payload)) as { type: string; played_ms?: number };
            if (data.type === 'cancel') cancels.push(data);
          }),
        );
        page.on('request', (r) => {
          if (r.url().includes('/api/invocations')) bodies.push(JSON.parse(r.postData() ?? '{}'));
        });
        await ask(page, transport, LONG, format);
        // Well into the answer: more than a second of its audio played.
        await until(page, 'turn 1 plays for a second', (r) => (r.played['1'] ?? 0) > r.sampleRate * 1.2);
        if (how === 'Stop') await page.locator('#stop').click();
        else await ask(page, transport, 'What did you say before?');
        await page.evaluate(() => window.kokoro.settled());
        const [first] = await turns(page);
        const r = await report(page);
        // played_ms is the worklet's own count of the turn's samples played, from its first one.
        expect(first!.playedMs).toBe((r.played['1']! / r.sampleRate) * 1000);
        expect(first!.playedMs!).toBeGreaterThan(1200);
        expect(first!.format).toBe(format === 'pcm' ? 'pcm_s16le' : 'opus');
        if (transport === 'ws') {
          expect(first!.reported).toBe('cancel');
          expect(cancels).toEqual([{ type: 'cancel', played_ms: first!.playedMs }]);
        } else {
          expect(first!.reported).toBe('next turn');
        }
        if (how === 'Stop') await ask(page, transport, 'What did you say before?');
        await untilDone(page, 2);
        if (transport === 'sse') expect(bodies[1]!.previous_played_ms).toBeCloseTo(first!.playedMs!, 1);
        // The agent's history holds what the page marks as heard: the echo model says it back.
        const heard = first!.heardText!;
        expect(heard.length).toBeGreaterThan(10);
        expect(LONG.startsWith(heard)).toBe(true);
        expect(heard.length).toBeLessThan(LONG.length);
        const stored = (await answerText(page)).replace(/^I said: /, '');
        expect(stored).toBe(heard);
        await expect(page.locator('#conversation li.turn .answer .unheard').count()).resolves.toBeGreaterThan(0);
        console.log(
          `barge-in (${transport}, ${first!.format}, ${how}): played ${first!.playedMs!.toFixed(1)} ms; page marks ${heard.length} characters heard, ` +
            `the agent stored ${stored.length} (of ${LONG.length} written): ${stored.length === heard.length ? 'equal' : 'differ'}`,
        );
        expect(pageErrors.get(page)).toEqual([]);
        await page.close();
      }, 180_000);
    }
  }
});
