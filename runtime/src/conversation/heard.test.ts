// The history-cut rule on its own: positions to places in the text, and the rebuilt messages.
import { describe, expect, test } from '@jest/globals';
import { Message, TextBlock, ToolResultBlock, ToolUseBlock } from '@strands-agents/sdk';
import type { SentenceTiming } from '../pipeline/types.ts';
import { heardPlace, rebuildTurn, replaceTurn, NOTHING_HEARD } from './heard.ts';
import { Transcript } from './transcript.ts';

function sentence(
  index: number,
  text: string,
  place: { cycle?: number; textStart: number },
  durationMs: number | undefined,
  extra: Partial<SentenceTiming> = {},
): SentenceTiming {
  return {
    id: `s${index}`,
    index,
    text,
    spoken: text,
    readyMs: 0,
    kind: 'answer',
    cycle: place.cycle ?? 0,
    textStart: place.textStart,
    textEnd: place.textStart + text.length,
    deliveredBytes: 0,
    deliveredMs: durationMs ?? 0,
    ...(durationMs === undefined ? {} : { durationMs }),
    ...extra,
  };
}

// "One two three. Four five six seven eight." : two sentences of 1000 ms each.
const A = 'One two three.';
const B = 'Four five six seven eight.';
const sentences = [sentence(0, A, { textStart: 0 }, 1000), sentence(1, B, { textStart: A.length + 1 }, 1000)];

describe('heardPlace', () => {
  test.each<[number, number, boolean]>([
    [0, 0, false],
    [999, 'One two'.length, false], // 13 of 14 characters: mid-word, back to the last whole word
    [1000, A.length, false],
    [1500, A.length + 1 + 'Four five six'.length, false], // 13 of 26 characters, at a word end
    [2000, A.length + 1 + B.length, true],
    [5000, A.length + 1 + B.length, true],
  ])('at %d ms the caller heard up to offset %d (all: %s)', (ms, offset, all) => {
    expect(heardPlace(sentences, ms)).toEqual({ cycle: 0, offset, all });
  });

  test('word timings, when given, decide within the sentence', () => {
    const words = [
      { textStart: 0, textEnd: 4, startMs: 0, endMs: 300 },
      { textStart: 5, textEnd: 9, startMs: 300, endMs: 700 },
      { textStart: 10, textEnd: 13, startMs: 700, endMs: 900 },
    ];
    const timed = [sentence(0, 'Four five six.', { textStart: 0 }, 1000, { words })];
    expect(heardPlace(timed, 650)).toMatchObject({ offset: 4 });
    expect(heardPlace(timed, 700)).toMatchObject({ offset: 9 });
  });

  test('word timings the container only estimated do not decide: the proportional rule does', () => {
    // The same words, estimated: at 650 ms (65% of 14 characters = 9, "Four five") the fraction
    // decides, where the timings would have said "Four".
    const words = [
      { textStart: 0, textEnd: 4, startMs: 0, endMs: 300 },
      { textStart: 5, textEnd: 9, startMs: 300, endMs: 700 },
      { textStart: 10, textEnd: 13, startMs: 700, endMs: 900 },
    ];
    const estimated = [sentence(0, 'Four five six.', { textStart: 0 }, 1000, { words, wordsEstimated: true })];
    expect(heardPlace(estimated, 650)).toMatchObject({ offset: 'Four five'.length });
    expect(heardPlace([sentence(0, 'Four five six.', { textStart: 0 }, 1000)], 650)).toMatchObject({
      offset: 'Four five'.length,
    });
  });

  test('a filler takes time but no text; a sentence never delivered cannot be heard', () => {
    const withFiller = [
      sentences[0]!,
      { ...sentence(1, 'One moment.', { textStart: A.length }, 500), kind: 'filler' as const, textEnd: A.length },
      sentence(2, B, { cycle: 1, textStart: 0 }, 1000),
    ];
    expect(heardPlace(withFiller, 1400)).toEqual({ cycle: 0, offset: A.length, all: false });
    expect(heardPlace(withFiller, 2000)).toEqual({ cycle: 1, offset: 'Four five six'.length, all: false });
    const undelivered = [sentences[0]!, { ...sentence(1, B, { textStart: 15 }, undefined), deliveredMs: 0 }];
    expect(heardPlace(undelivered, 60_000)).toEqual({ cycle: 0, offset: A.length, all: true });
  });

  test('a partly delivered sentence lasts at least what was delivered, at the speaking rate of the turn', () => {
    const partly = [sentences[0]!, { ...sentence(1, B, { textStart: 15 }, undefined), deliveredMs: 400 }];
    // 1000 ms for 14 chars: 26 chars take ~1857 ms; 929 ms into it is half.
    expect(heardPlace(partly, 1000 + 1857 / 2).offset).toBe(15 + 'Four five'.length);
  });
});

describe('rebuildTurn', () => {
  function transcript(): Transcript {
    const t = new Transcript();
    t.newCycle();
    t.current.text = 'Let me check that for you. ';
    const use = new ToolUseBlock({ name: 'lookup', toolUseId: 't1', input: {} });
    t.current.toolUses.push(use);
    t.current.results.set(
      't1',
      new ToolResultBlock({ toolUseId: 't1', status: 'success', content: [new TextBlock('42')] }),
    );
    t.newCycle();
    t.current.text = 'It is 42. That is the answer.';
    return t;
  }
  const shape = (ms: Message[]) =>
    ms.map((m) => `${m.role}: ${m.content.map((b) => (b.type === 'textBlock' ? b.text : b.type)).join(' + ')}`);

  test('cut in the answer after a tool: the tool pair stays, the answer keeps what was heard', () => {
    const rebuilt = rebuildTurn(
      transcript(),
      { cycle: 1, offset: 'It is 42.'.length, all: false },
      {
        played_ms: 3000,
        reason: 'interrupted',
      },
    );
    expect(shape(rebuilt)).toEqual([
      'assistant: Let me check that for you. + toolUseBlock',
      'user: toolResultBlock',
      'assistant: It is 42.',
    ]);
    expect(rebuilt[2]!.metadata?.custom).toEqual({
      kokoro_speech: { interrupted: true, reason: 'interrupted', played_ms: 3000 },
    });
  });

  test('cut before the tool call was heard: the tool ran, so its pair stays; the turn still ends with the assistant', () => {
    const rebuilt = rebuildTurn(
      transcript(),
      { cycle: 0, offset: 'Let me'.length, all: false },
      {
        played_ms: 200,
        reason: 'interrupted',
      },
    );
    expect(shape(rebuilt)).toEqual([
      'assistant: Let me + toolUseBlock',
      'user: toolResultBlock',
      `assistant: ${NOTHING_HEARD}`,
    ]);
  });

  test('nothing heard, no tool: one assistant message saying so', () => {
    const t = new Transcript();
    t.newCycle();
    t.current.text = 'Never heard.';
    expect(shape(rebuildTurn(t, { cycle: 0, offset: 0, all: false }, { played_ms: 0, reason: 'interrupted' }))).toEqual(
      [`assistant: ${NOTHING_HEARD}`],
    );
  });

  test('replaceTurn swaps the messages of the turn after its prompt, and leaves other turns alone', () => {
    const prompt = new Message({ role: 'user', content: [new TextBlock('Q1')] });
    const answer = new Message({ role: 'assistant', content: [new TextBlock('A1 long')] });
    const next = new Message({ role: 'user', content: [new TextBlock('Q2')] });
    const history = [prompt, answer, next];
    const cut = new Message({ role: 'assistant', content: [new TextBlock('A1')] });
    expect(replaceTurn(history, prompt.trackingId, [answer.trackingId], [cut])).toEqual([cut.trackingId]);
    expect(history).toEqual([prompt, cut, next]);
    expect(replaceTurn(history, 'gone', [cut.trackingId], [answer])).toBeUndefined();
  });
});
