// jest's node environment runs each test file in its own vm realm, so typed arrays made there are
// not `instanceof` the host's Float32Array. onnxruntime-node builds its output tensors in the host
// realm and onnxruntime-common checks them against the test realm's constructors, which fails
// ("A float32 tensor's data must be type of Float32Array"). Sharing the host's typed-array
// constructors with the test realm keeps the real model code path under test.
import { TestEnvironment } from 'jest-environment-node';

const SHARED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Buffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

export default class HostTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}
