// The instances' NVIDIA driver against the container's CUDA: the real container/Dockerfile on the
// default AMI, the table of AMIs, and every refusal naming its config key.
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  DEFAULT_INFERENCE_AMI,
  chooseInferenceAmi,
  cudaRuns,
  defaultGpuDriver,
  dockerfileCuda,
  inferenceAmis,
  instanceAccelerator,
} from './gpu-drivers.ts';

const containerDockerfile = readFileSync(new URL('../../container/Dockerfile', import.meta.url), 'utf8');
const cuda12 = { major: 12, minor: 6 };

describe('the container image and the default AMI', () => {
  test("the default AMI's driver runs container/Dockerfile's CUDA (SageMaker's default driver does not)", () => {
    const imageCuda = dockerfileCuda(containerDockerfile);
    const ami = chooseInferenceAmi({ instanceType: 'ml.g5.xlarge', device: 'cuda', imageCuda });
    expect(ami).toBe(DEFAULT_INFERENCE_AMI);
    expect(cudaRuns(imageCuda, inferenceAmis[ami!]!.maxCuda!)).toBe(true);
    expect(cudaRuns(imageCuda, defaultGpuDriver.maxCuda)).toBe(false);
  });

  test('endpoint/Pulumi.yaml documents the default AMI', () => {
    const project = parse(readFileSync(new URL('./Pulumi.yaml', import.meta.url), 'utf8'));
    const description: string = project.config.inferenceAmiVersion.description;
    expect(description).toContain(`${DEFAULT_INFERENCE_AMI} (driver ${inferenceAmis[DEFAULT_INFERENCE_AMI]!.driver}`);
    expect(project.config.inferenceAmiVersion.default).toBeUndefined(); // no default on CPU instances
  });
});

describe('dockerfileCuda', () => {
  test('reads major and minor from the ARG CUDA_IMAGE line', () => {
    expect(dockerfileCuda('FROM x\nARG CUDA_IMAGE=nvidia/cuda:13.0.1-cudnn-runtime-ubuntu24.04\n')).toEqual({
      major: 13,
      minor: 0,
    });
    expect(() => dockerfileCuda('ARG CUDA_IMAGE=ubuntu:22.04\n')).toThrow("no line 'ARG CUDA_IMAGE=nvidia/cuda:");
  });
});

describe('chooseInferenceAmi', () => {
  test('a CUDA 12 image runs on any 12.x driver, not on an 11.x one', () => {
    for (const ami of ['al2-ami-sagemaker-inference-gpu-2', 'al2-ami-sagemaker-inference-gpu-2-1']) {
      expect(
        chooseInferenceAmi({ instanceType: 'ml.g6.xlarge', device: 'cuda', configured: ami, imageCuda: cuda12 }),
      ).toBe(ami);
    }
    expect(() =>
      chooseInferenceAmi({ instanceType: 'ml.g5.xlarge', device: 'cuda', imageCuda: { major: 13, minor: 0 } }),
    ).toThrow(
      "config 'inferenceAmiVersion' al2-ami-sagemaker-inference-gpu-3-1 runs NVIDIA driver 550 (CUDA <= 12.4), which cannot run the image's CUDA 13.0",
    );
  });

  test('a CPU instance type takes no inference AMI', () => {
    expect(chooseInferenceAmi({ instanceType: 'ml.c7i.xlarge', device: 'cpu', imageCuda: cuda12 })).toBeUndefined();
    expect(() =>
      chooseInferenceAmi({
        instanceType: 'ml.m7i.xlarge',
        device: 'cpu',
        configured: DEFAULT_INFERENCE_AMI,
        imageCuda: cuda12,
      }),
    ).toThrow("config 'inferenceAmiVersion' must be unset for the CPU instance type ml.m7i.xlarge");
    expect(() => chooseInferenceAmi({ instanceType: 'ml.c7i.xlarge', device: 'cuda', imageCuda: cuda12 })).toThrow(
      "config 'device' is cuda but config 'instanceType' ml.c7i.xlarge has no NVIDIA GPU",
    );
  });

  test('device cpu on a GPU instance keeps the default driver unless one is set', () => {
    expect(chooseInferenceAmi({ instanceType: 'ml.g5.xlarge', device: 'cpu', imageCuda: cuda12 })).toBeUndefined();
  });

  test('refuses unknown AMIs and AMIs of the other accelerator', () => {
    expect(() =>
      chooseInferenceAmi({ instanceType: 'ml.g5.xlarge', device: 'cuda', configured: 'al2-gpu-9', imageCuda: cuda12 }),
    ).toThrow("config 'inferenceAmiVersion' 'al2-gpu-9' is not one of al2-ami-sagemaker-inference-gpu-2,");
    expect(() =>
      chooseInferenceAmi({
        instanceType: 'ml.g5.xlarge',
        device: 'cuda',
        configured: 'al2-ami-sagemaker-inference-neuron-2',
        imageCuda: cuda12,
      }),
    ).toThrow('is for neuron instances, not ml.g5.xlarge');
  });

  test('tells the accelerators apart by instance family', () => {
    expect(['ml.g4dn.xlarge', 'ml.g5.xlarge', 'ml.g6e.xlarge', 'ml.p5.48xlarge'].map(instanceAccelerator)).toEqual([
      'nvidia',
      'nvidia',
      'nvidia',
      'nvidia',
    ]);
    expect(['ml.inf2.xlarge', 'ml.trn1.2xlarge', 'ml.c7i.xlarge', 'ml.m7i.xlarge'].map(instanceAccelerator)).toEqual([
      'neuron',
      'neuron',
      'none',
      'none',
    ]);
  });
});
