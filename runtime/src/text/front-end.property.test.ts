// Property tests of the text front end (issue 27): random LLM-like answers in every language,
// whole and split into random deltas. The long run: npm run -w runtime fuzz:text.
import { expect, test } from '@jest/globals';
import fc from 'fast-check';
import { checkFrontEnd, frontEndCase } from './front-end-properties.ts';
import { LANGUAGES } from './normalize.ts';

test.each(LANGUAGES.map((l) => [l]))(
  '%s: nothing throws, no text is lost, streamed text equals the whole, word spans inside and in order',
  (language) => {
    fc.assert(
      fc.property(frontEndCase([language]), (c) => {
        checkFrontEnd(c);
      }),
      { numRuns: 150 },
    );
    expect(true).toBe(true);
  },
);
