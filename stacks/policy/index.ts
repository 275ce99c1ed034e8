// The kokoro-speech CrossGuard policy pack: `pulumi preview --policy-pack stacks/policy` in any
// layer folder, or publish it with `pulumi policy publish` from this folder.
import { PolicyPack } from '@pulumi/policy';
import { policies } from './policies.ts';

new PolicyPack('kokoro-speech', { policies });
