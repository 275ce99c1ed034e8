// The jest environment of the LiveKit plugin's tests: the repository's (the host's typed arrays),
// and the host's TypeError too. LiveKit Agents tells a web-stream reader released on purpose from a
// failure by `instanceof TypeError` (isStreamReaderReleaseError in @livekit/agents 1.9.0
// dist/stream/deferred_stream.js); node:stream/web makes that error in the host realm, so in jest's
// vm realm the check fails and an AgentSession's ordinary hand-over surfaces as an error.
import HostTypedArraysEnvironment from '../../../../tools/jest/node-environment.js';

export default class LiveKitEnvironment extends HostTypedArraysEnvironment {
  constructor(config, context) {
    super(config, context);
    this.global.TypeError = globalThis.TypeError;
  }
}
