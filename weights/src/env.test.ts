import { expect, test } from '@jest/globals';
import { readWeightsEnv } from './env.ts';
import { HubClient } from './hub.ts';

test('the weights variables: blank is unset, a bad HF_ENDPOINT is named', () => {
  expect(readWeightsEnv({ HF_ENDPOINT: 'https://hf.example/', HF_TOKEN: '', XDG_CACHE_HOME: '/c' })).toEqual({
    HF_ENDPOINT: 'https://hf.example/',
    XDG_CACHE_HOME: '/c',
  });
  expect(() => readWeightsEnv({ HF_ENDPOINT: 'hf.example' })).toThrow(
    /HF_ENDPOINT: must be an http\(s\) URL, not "hf.example"/,
  );
});

test('a HubClient given its endpoint and token does not read the variables', () => {
  const saved = process.env['HF_ENDPOINT'];
  process.env['HF_ENDPOINT'] = 'not a url';
  try {
    expect(() => new HubClient()).toThrow(/HF_ENDPOINT/);
    expect(new HubClient({ endpoint: 'https://hf.example', token: '' }).endpoint).toBe('https://hf.example');
  } finally {
    if (saved === undefined) delete process.env['HF_ENDPOINT'];
    else process.env['HF_ENDPOINT'] = saved;
  }
});
