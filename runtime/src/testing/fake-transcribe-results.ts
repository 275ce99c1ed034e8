// One Transcribe streaming Result, shaped as the service model's Result/Alternative/Item: words
// as pronunciation items, trailing punctuation as punctuation items, times spread evenly over the
// utterance, and (with stabilisation on) the first `stableWords` items marked Stable.

export interface ResultSpec {
  id: string;
  text: string;
  /** Seconds from the stream's start. */
  start: number;
  end: number;
  partial: boolean;
  /** Undefined: stabilisation off (no Stable field at all). */
  stableWords: number | undefined;
}

export function transcriptResult(spec: ResultSpec): Record<string, unknown> {
  const tokens: { content: string; type: 'pronunciation' | 'punctuation' }[] = [];
  for (const word of spec.text.split(/\s+/).filter(Boolean)) {
    const m = /^(.*?)([.,?!]*)$/.exec(word)!;
    if (m[1]) tokens.push({ content: m[1], type: 'pronunciation' });
    for (const mark of m[2] ?? '') tokens.push({ content: mark, type: 'punctuation' });
  }
  const words = tokens.filter((t) => t.type === 'pronunciation').length || 1;
  const step = (spec.end - spec.start) / words;
  let at = spec.start;
  let index = 0;
  const items = tokens.map((t) => {
    const start = at;
    if (t.type === 'pronunciation') at += step;
    const item: Record<string, unknown> = {
      Content: t.content,
      Type: t.type,
      StartTime: +start.toFixed(3),
      EndTime: +(t.type === 'pronunciation' ? at : start).toFixed(3),
      VocabularyFilterMatch: false,
    };
    if (spec.stableWords !== undefined) item.Stable = index < spec.stableWords;
    index++;
    return item;
  });
  return {
    ResultId: spec.id,
    StartTime: +spec.start.toFixed(3),
    EndTime: +spec.end.toFixed(3),
    IsPartial: spec.partial,
    ChannelId: 'ch_0',
    Alternatives: [{ Transcript: spec.text, Items: items }],
  };
}
