// The shared test suite every TtsTransport runs (direct WebSocket, SageMaker bidi, response stream),
// against the fake peer and against the real container on the stand-in model.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { TtsTransportError } from '../tts/types.ts';
import { collect, SENTENCES, SETTINGS, type Collected, type SuiteTarget } from './transport-collect.ts';

export { collect, SENTENCES, type Collected, type SuiteTarget } from './transport-collect.ts';

export function transportSuite(
  name: string,
  setup: () => Promise<SuiteTarget>,
  options: { pipelined?: number } = {},
): void {
  const pipelined = SENTENCES.slice(0, options.pipelined ?? SENTENCES.length);
  describe(`${name}: shared TTS transport suite`, () => {
    let target: SuiteTarget;
    beforeAll(async () => {
      target = await setup();
    });
    afterAll(async () => {
      await target?.close();
    });

    const checkComplete = (collected: Collected, texts: string[], ids: string[], firstIndex = 0) => {
      expect(collected.ends).toEqual(ids);
      ids.forEach((id, index) => {
        const utterance = collected.utterances.get(id)!;
        expect(utterance.index).toBe(firstIndex + index);
        expect(utterance.starts).toBe(1); // exactly once, a reconnect included
        expect(utterance.samples).toBeGreaterThan(0);
        expect(utterance.bytes).toBe(utterance.samples! * 2);
        if (target.expectedSamples) expect(utterance.samples).toBe(target.expectedSamples(texts[index]!, 24000));
      });
    };

    test('opens with the ready figures and the requested format', async () => {
      const session = await target.transport.open(SETTINGS);
      const ready = await session.ready;
      expect(ready).toMatchObject({ sample_rate: 24000, format: 'pcm_s16le' });
      // The response-stream call has no ready message, so no voice list.
      if (target.transport.name === 'sagemaker-response-stream') expect(ready.voices).toEqual([]);
      else expect(ready.voices.length).toBeGreaterThan(0);
      await session.end();
      await expect(collect(session)).resolves.toMatchObject({ ends: [] });
      session.close();
    });

    test(`pipelines ${pipelined.length} utterances and delivers them in order, complete, never interleaved`, async () => {
      const session = await target.transport.open(SETTINGS);
      const ids = pipelined.map((text, i) => session.speak(text, `p${i}`));
      const collecting = collect(session);
      await session.end();
      const collected = await collecting;
      checkComplete(collected, pipelined, ids);
      expect(() => session.speak('too late')).toThrow(/after end/);
      session.close();
    });

    test('cancel drops queued and playing utterances; nothing stale arrives; the session goes on', async () => {
      const session = await target.transport.open(SETTINGS);
      const first = SENTENCES.slice(0, 8).map((text) => session.speak(text));
      let cancelled: Promise<string[]> | null = null;
      let after: string | null = null;
      const collected = await collect(session, (event) => {
        if (event.type === 'audio' && !cancelled) {
          cancelled = session.cancel();
          void cancelled.then(() => {
            after = session.speak('After the cancel.', 'after');
            void session.end();
          });
          return 'abandon';
        }
      });
      const dropped = await cancelled!;
      expect(dropped.length).toBeGreaterThan(0);
      expect(first).toEqual(expect.arrayContaining(dropped));
      expect(collected.ends.filter((id) => dropped.includes(id))).toEqual([]);
      expect(collected.ends.at(-1)).toBe(after);
      const afterCancel = collected.events.slice(
        collected.events.findIndex((e) => e.type === 'audio_start' && e.id === 'after'),
      );
      expect(afterCancel.every((e) => e.type !== 'audio' || e.id === 'after')).toBe(true);
      session.close();
    });

    test('an utterance-level error names its id and the session continues', async () => {
      const session = await target.transport.open(SETTINGS);
      session.speak('   ', 'blank');
      const ok = session.speak('Still here.', 'ok');
      const collecting = collect(session);
      await session.end();
      const collected = await collecting;
      expect(collected.errors).toEqual([expect.objectContaining({ type: 'error', id: 'blank' })]);
      checkComplete(collected, ['Still here.'], [ok], 1);
      session.close();
    });

    test('a stream broken mid-answer is re-opened: every sentence and every byte arrives exactly once', async () => {
      const session = await target.viaProxy.open(SETTINGS);
      const texts = SENTENCES.slice(0, 12);
      const ids = texts.map((text, i) => session.speak(text, `r${i}`));
      let cut = false;
      const collecting = collect(session, (event) => {
        if (!cut && event.type === 'audio' && event.id === 'r1') {
          cut = true;
          target.proxy.cutAll();
        }
      });
      await session.end();
      const collected = await collecting;
      if (target.transport.name === 'sagemaker-response-stream') {
        // One call per utterance: each broken call is retried and announced on its own.
        expect(collected.reconnects.length).toBeGreaterThan(0);
        expect(ids).toEqual(expect.arrayContaining(collected.reconnects.flat()));
      } else {
        // One stream: what was not complete when it broke was sent again, a tail of the answer.
        expect(collected.reconnects.length).toBe(1);
        const resent = collected.reconnects[0]!;
        expect(resent.length).toBeGreaterThan(0);
        expect(resent).toEqual(ids.slice(ids.length - resent.length));
      }
      checkComplete(collected, texts, ids);
      session.close();
    });

    test('paused, it reads nothing more (what was in flight aside); resumed, every utterance arrives once', async () => {
      const session = await target.transport.open(SETTINGS);
      const texts = SENTENCES.slice(0, 10);
      const ids = texts.map((text, i) => session.speak(text, `f${i}`));
      let seen = 0;
      let ended = 0;
      const first = Promise.withResolvers<void>();
      const collecting = collect(session, (event) => {
        seen++;
        if (event.type === 'audio_end') ended++;
        if (seen === 1) {
          session.pause!();
          first.resolve();
        }
      });
      // Paused at the first event, however long it takes to come; then the events queued before
      // the pause are read (at once: no event is delivered after pause()). The two waits are
      // windows in which nothing may happen: time passing is the point.
      await first.promise;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const whilePaused = seen;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen).toBe(whilePaused); // nothing is read while paused
      expect(ended).toBeLessThan(texts.length); // and it was paused before the answer was read
      session.resume!();
      await session.end();
      const collected = await collecting;
      expect(seen).toBeGreaterThan(whilePaused);
      checkComplete(collected, texts, ids);
      session.close();
    });

    test('the TTS server away for a second mid-answer (a restart): re-opened with backoff once it is back, every byte once', async () => {
      const session = await target.viaProxy.open(SETTINGS);
      const texts = SENTENCES.slice(0, 12);
      const ids = texts.map((text, i) => session.speak(text, `b${i}`));
      let cut = false;
      const collecting = collect(session, (event) => {
        if (!cut && event.type === 'audio' && event.id === 'b1') {
          cut = true;
          target.proxy.refuseNew(true); // nobody there: every try fails until it is back
          target.proxy.cutAll();
          setTimeout(() => target.proxy.refuseNew(false), 1000);
        }
      });
      try {
        await session.end();
        const collected = await collecting;
        expect(collected.reconnects.length).toBeGreaterThan(0);
        checkComplete(collected, texts, ids);
      } finally {
        target.proxy.refuseNew(false);
        session.close();
      }
    });

    test('paused while it re-opens a broken stream: the new stream starts paused; resumed, every byte once', async () => {
      const session = await target.viaProxy.open(SETTINGS);
      const texts = SENTENCES.slice(0, 10);
      const ids = texts.map((text, i) => session.speak(text, `c${i}`));
      let seen = 0;
      let ended = 0;
      let cut = false;
      const collecting = collect(session, (event) => {
        seen++;
        if (event.type === 'audio_end') ended++;
        if (!cut && event.type === 'audio' && event.id === 'c1') {
          cut = true;
          target.proxy.refuseNew(true);
          target.proxy.cutAll();
        }
      });
      try {
        // The break is seen once a try has been refused, however long that takes.
        const refused = target.proxy.refused;
        while (!cut || target.proxy.refused === refused) await new Promise((resolve) => setTimeout(resolve, 10));
        session.pause!();
        const up = target.proxy.bytes.up;
        target.proxy.refuseNew(false); // the next try gets through, while paused
        const whilePaused = seen;
        // A window longer than the ready timeout, in which nothing may be read: time passing is the point.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // Paused on the new stream: its audio is not read (what had been read before aside).
        expect(seen - whilePaused).toBeLessThanOrEqual(2);
        expect(ended).toBeLessThan(texts.length);
        // A protocol-v1 session did re-open, and re-sent the utterances in flight.
        if (target.transport.name !== 'sagemaker-response-stream') expect(target.proxy.bytes.up).toBeGreaterThan(up);
        session.resume!();
        await session.end();
        checkComplete(await collecting, texts, ids);
      } finally {
        target.proxy.refuseNew(false);
        session.close();
      }
    });

    test('a second failure is reported as a TtsTransportError', async () => {
      const session = await target.viaProxy.open(SETTINGS);
      SENTENCES.slice(0, 6).forEach((text) => session.speak(text));
      let cut = false;
      const collecting = collect(session, (event) => {
        if (!cut && event.type === 'audio') {
          cut = true;
          target.proxy.refuseNew(true);
          target.proxy.cutAll();
        }
      });
      try {
        await expect(collecting).rejects.toBeInstanceOf(TtsTransportError);
        await expect(session.end()).rejects.toBeInstanceOf(TtsTransportError);
        expect(() => session.speak('no')).toThrow(TtsTransportError);
      } finally {
        target.proxy.refuseNew(false);
        session.close();
      }
    });
  });
}
