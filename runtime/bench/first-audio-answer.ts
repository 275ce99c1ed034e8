// The benchmark's answer: a long first sentence, three paragraphs, numbers and an abbreviation.
export const ANSWER = [
  'Kokoro is an open-weight text to speech model, small enough at about eighty-two million parameters to run on a single modest GPU, which is why it can start speaking within a fraction of a second of receiving a sentence.',
  'It was trained on a few hundred hours of permissively licensed audio. The weights are released under the Apache 2.0 licence, so you can use them in commercial products. It ships with more than two dozen English voices, and af_heart is the one most people start with.',
  '',
  'For a voice agent, the model itself is rarely the bottleneck. What matters is how soon the first words of the answer reach it: a language model writes about forty tokens per second, so waiting for a whole paragraph adds several seconds of silence. Cutting the first sentence at a natural clause and sending each later sentence the moment it is complete hides almost all of that delay. The listener hears the start of the answer while the rest is still being written, and the audio never runs dry, because the model writes text about ten times faster than anyone can speak it.',
  '',
  'There are a few other details worth knowing. Dr. Smith measured a real-time factor of about 0.1 on an A10G, including the network. Prices like $4.99, dates like March 3rd, and times such as 10:30 are spoken as words. Markdown, links and emoji are shown on screen but never read aloud. Finally, barge-in matters: when the user interrupts, every queued sentence must be dropped at once, so that no stale audio plays after the user has started talking again.',
].join('\n');
