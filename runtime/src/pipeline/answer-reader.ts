// Reading the LLM's answer: the agent loop's stream becomes `text` events (inline pronunciations
// shown as their word), pieces to speak as the turn policy cuts them (the text before a tool call
// cut and spoken at once; the answer after a tool a fresh segmenter), tool events, the first
// token's time, and an LLM failure kept to report after the audio of the text already shown.
// Only a throw of the LLM's stream is the LLM's failure: a throw while handling what it wrote (the
// text front end, the caller's side) propagates to the turn, which names its real cause.
import { systemPromptFor } from '../llm/language-prompt.ts';
import { ShownTextStream } from '../text/inline-display.ts';
import { agentAnswer } from '../conversation/answer.ts';
import { createAgent } from '../conversation/agents.ts';
import type { TurnTrace } from '../observability/index.ts';
import { planFor, type PolicyPlan, type PolicyPlanner, type TurnPolicy } from './policies.ts';
import type { SentencePlace } from './sentences.ts';
import type { AnswerEvent, AnswerSource, PipelineEvent, TurnContext, TurnFailure } from './types.ts';
import { inTextFrontEnd, llmFailure } from './turn-faults.ts';
import type { SpokenLanguage } from '@kokoro-speech/protocol';

/** A fresh agent on the context's model and tools, for one prompt (no memory). */
export function oneShotAnswer(context: TurnContext, prompt: string, language: SpokenLanguage = 'en'): AnswerSource {
  const systemPrompt = systemPromptFor(context.systemPrompt, language);
  return async function* (signal) {
    const agent = await createAgent({
      model: context.llm.model,
      ...(systemPrompt ? { systemPrompt } : {}),
      ...(context.tools ? { tools: context.tools } : {}),
    });
    yield* agentAnswer(agent, prompt, signal, context.llm, undefined, context.llmTimeouts);
  };
}

/** One model call's text: places its pieces (offsets in that text, in order). */
export class CycleText {
  text = '';
  #cursor = 0;
  readonly cycle: number;
  constructor(cycle: number) {
    this.cycle = cycle;
  }
  place(piece: string): SentencePlace {
    const at = this.text.indexOf(piece, this.#cursor);
    const textStart = at >= 0 ? at : this.#cursor;
    const textEnd = Math.min(this.text.length, textStart + piece.length);
    this.#cursor = textEnd;
    return { kind: 'answer', cycle: this.cycle, textStart, textEnd };
  }
  get here(): SentencePlace {
    return { kind: 'filler', cycle: this.cycle, textStart: this.#cursor, textEnd: this.#cursor };
  }
}

/** What the reader needs of its turn. */
export interface AnswerTurn {
  /** The turn has ended (error or cancelled): reading stops, nothing more is spoken. */
  readonly ended: boolean;
  readonly trace: TurnTrace;
  now(): number;
  emit(event: PipelineEvent): void;
  onTool(event: Extract<AnswerEvent, { type: 'tool_start' | 'tool_end' }>): void;
  /** Speaks a piece (after the earlier ones; under a waiting policy also after their audio). */
  enqueue(piece: string, waitForPrevious: boolean, place: SentencePlace): void;
  /** The LLM provider's name, for its failures' messages. */
  llmName(): string;
}

export class AnswerReader {
  readonly #turn: AnswerTurn;
  readonly #policy: TurnPolicy | PolicyPlanner;
  /** The model call being read (the tool filler is placed at its cursor). */
  cycle = new CycleText(0);
  firstTokenMs: number | null = null;
  /** An LLM failure: reported after the audio of the text already shown. */
  llmError: TurnFailure | undefined;

  constructor(turn: AnswerTurn, policy: TurnPolicy | PolicyPlanner) {
    this.#turn = turn;
    this.#policy = policy;
  }

  /** Streams the agent loop's answer into text and tool events and utterances, as the policy says. */
  async read(language: SpokenLanguage, answer: () => AnswerSource, signal: AbortSignal): Promise<void> {
    const turn = this.#turn;
    let plan = planFor(this.#policy, language);
    /** Under `batch`, each model call's whole text, cut and sent once the answer is complete. */
    const batches: CycleText[] = [];
    const enqueue = (pieces: string[], cycle: CycleText = this.cycle, p: PolicyPlan = plan) => {
      for (const piece of pieces) turn.enqueue(piece, p.waitForPreviousAudio, cycle.place(piece));
    };
    const cut = (what: string, step: () => string[]) => enqueue(inTextFrontEnd(what, step));
    const endCycle = () => {
      if (plan.wholeAnswerFirst) batches.push(this.cycle);
      else cut('cutting the answer into sentences', () => plan.splitter.flush());
    };
    // `text` events show inline pronunciations as their word (the sentences still carry them).
    const shown = new ShownTextStream();
    const showText = (step: () => string) => {
      const delta = inTextFrontEnd('showing the answer', step);
      if (delta) turn.emit({ type: 'text', delta });
    };
    if (turn.ended) return;
    const events = answer()(signal)[Symbol.asyncIterator]();
    let finished = false;
    try {
      for (;;) {
        let next: IteratorResult<AnswerEvent>;
        try {
          next = await events.next();
        } catch (error) {
          finished = true;
          // The text shown so far is still spoken (by the turn); the error follows its audio.
          if (!turn.ended) this.llmError = llmFailure(error, turn.llmName());
          break;
        }
        if (next.done) {
          finished = true;
          break;
        }
        if (turn.ended) return;
        this.#handle(next.value, { showText, shown, cut, endCycle, plan: () => plan });
        if (next.value.type === 'cycle') plan = planFor(this.#policy, language);
      }
    } finally {
      // Stopped reading early (the turn ended, or a throw of ours): the LLM's stream is let go
      // (the turn aborts its request too).
      if (!finished) void Promise.resolve(events.return?.()).catch(() => {});
    }
    if (turn.ended) return;
    showText(() => shown.flush());
    endCycle();
    for (const cycle of batches) {
      const whole = planFor(this.#policy, language);
      enqueue(
        inTextFrontEnd('cutting the answer into sentences', () => [
          ...whole.splitter.push(cycle.text),
          ...whole.splitter.flush(),
        ]),
        cycle,
        whole,
      );
    }
  }

  /** One event of the answer: text shown and cut, a tool's boundary, a new model call. */
  #handle(
    event: AnswerEvent,
    on: {
      showText: (step: () => string) => void;
      shown: ShownTextStream;
      cut: (what: string, step: () => string[]) => void;
      endCycle: () => void;
      plan: () => PolicyPlan;
    },
  ): void {
    const turn = this.#turn;
    const plan = on.plan();
    switch (event.type) {
      case 'text':
        if (this.firstTokenMs === null) {
          this.firstTokenMs = turn.now();
          turn.trace.firstToken();
        }
        on.showText(() => on.shown.push(event.delta));
        this.cycle.text += event.delta;
        if (!plan.wholeAnswerFirst) on.cut('cutting the answer into sentences', () => plan.splitter.push(event.delta));
        break;
      case 'tool_call':
        // The text before a tool call is complete: speak it now rather than hold a half sentence.
        on.showText(() => on.shown.flush());
        if (!plan.wholeAnswerFirst) on.cut('cutting the answer into sentences', () => plan.splitter.flush());
        break;
      case 'tool_start':
      case 'tool_end':
        turn.onTool(event);
        break;
      case 'cycle':
        on.endCycle();
        // The answer after a tool: a fresh segmenter (the caller makes it), its first piece cut early again.
        this.cycle = new CycleText(this.cycle.cycle + 1);
        break;
    }
  }
}
