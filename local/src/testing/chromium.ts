// Debian's Chromium, launched the one way this project's browser tests, benchmark and screenshot
// need: headless, with the flags that keep it off the network (docs/testing.md#the-browser-tests: without
// them it opens background connections of its own, which a network without internet refuses), and
// audio that starts without a user gesture. playwright gives each launch a fresh profile folder of its own.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const hasChromium = (): boolean => existsSync(CHROMIUM);

/** `extraArgs`: more command-line switches (e.g. --host-resolver-rules for a name that maps to loopback). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}
