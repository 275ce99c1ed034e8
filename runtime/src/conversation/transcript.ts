// What one turn of an agent loop wrote, as the loop streamed it: per model call (cycle) the text
// deltas joined, the tool uses it asked for and their results; and the ids of the messages the
// turn added to the agent's conversation. The history cut (heard.ts) rebuilds messages from this,
// because a cancelled Strands invocation stores none of its partial text.
import type { Message, ToolResultBlock, ToolUseBlock } from '@strands-agents/sdk';

export interface Cycle {
  text: string;
  toolUses: ToolUseBlock[];
  results: Map<string, ToolResultBlock>;
}

export class Transcript {
  readonly cycles: Cycle[] = [];
  /** trackingId of the turn's user prompt message. */
  promptId: string | undefined;
  /** trackingIds of the messages the turn added after its prompt, in order. */
  readonly addedIds: string[] = [];

  get current(): Cycle {
    if (this.cycles.length === 0) this.newCycle();
    return this.cycles.at(-1)!;
  }

  newCycle(): void {
    this.cycles.push({ text: '', toolUses: [], results: new Map() });
  }

  added(message: Message): void {
    if (this.promptId === undefined && message.role === 'user') this.promptId = message.trackingId;
    else this.addedIds.push(message.trackingId);
  }

  get text(): string {
    return this.cycles.map((c) => c.text).join('');
  }
}
