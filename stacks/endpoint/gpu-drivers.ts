// Which NVIDIA driver the endpoint's instances run, and whether it runs the container's CUDA: the
// production variant's InferenceAmiVersion picks the driver; without one, real-time GPU instances
// keep SageMaker's default driver, which is too old for CUDA 12. Plain data and checks, unit-tested.

export interface InferenceAmi {
  accelerator: 'nvidia' | 'neuron';
  /** NVIDIA driver branch (nvidia AMIs only). */
  driver?: number;
  /** Newest CUDA version the driver supports, `major.minor` (nvidia AMIs only). */
  maxCuda?: string;
}

/**
 * SageMaker's inference AMI versions (ProductionVariant.InferenceAmiVersion, as listed in the
 * SageMaker API reference and its "GPU driver upgrades" best-practices page; re-check there when
 * AWS adds one). The -1 variants run the NVIDIA Container Toolkit with CUDA-compat mounting off.
 */
export const inferenceAmis: Record<string, InferenceAmi> = {
  'al2-ami-sagemaker-inference-gpu-2': { accelerator: 'nvidia', driver: 535, maxCuda: '12.2' },
  'al2-ami-sagemaker-inference-gpu-2-1': { accelerator: 'nvidia', driver: 535, maxCuda: '12.2' },
  'al2-ami-sagemaker-inference-gpu-3-1': { accelerator: 'nvidia', driver: 550, maxCuda: '12.4' },
  'al2-ami-sagemaker-inference-neuron-2': { accelerator: 'neuron' },
};

/** What a real-time ml.g4dn/g5/p4d instance runs without an InferenceAmiVersion (same AWS page). */
export const defaultGpuDriver = { driver: 470, maxCuda: '11.4' };

/** The default: driver 550, CUDA 12.4, which runs the CUDA 12 image (see cudaRuns). */
export const DEFAULT_INFERENCE_AMI = 'al2-ami-sagemaker-inference-gpu-3-1';

export interface CudaVersion {
  major: number;
  minor: number;
}

/**
 * The CUDA version of the gpu image, from container/Dockerfile's line
 * `ARG CUDA_IMAGE=nvidia/cuda:<major>.<minor>.<patch>-...` (a format container/ keeps for this check).
 */
export function dockerfileCuda(dockerfile: string): CudaVersion {
  const match = /^ARG CUDA_IMAGE=nvidia\/cuda:(\d+)\.(\d+)\.\d+-/m.exec(dockerfile);
  if (match === null) {
    throw new Error("container/Dockerfile has no line 'ARG CUDA_IMAGE=nvidia/cuda:<major>.<minor>.<patch>-...'");
  }
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/**
 * Whether a driver supporting CUDA up to `maxCuda` runs a CUDA `image` runtime: any CUDA 12.x
 * runtime runs on a driver for an earlier 12.y (NVIDIA's minor version compatibility; the
 * container ships no forward-compatibility package), never on a driver of an earlier major.
 */
export function cudaRuns(image: CudaVersion, maxCuda: string): boolean {
  const [major] = maxCuda.split('.').map(Number);
  return major !== undefined && image.major <= major;
}

/** The accelerator an instance type carries: NVIDIA GPUs on ml.g and ml.p types, Neuron on ml.inf and ml.trn. */
export function instanceAccelerator(instanceType: string): 'nvidia' | 'neuron' | 'none' {
  if (/^ml\.(g|p)\d/.test(instanceType)) return 'nvidia';
  if (/^ml\.(inf|trn)\d/.test(instanceType)) return 'neuron';
  return 'none';
}

export interface AmiChoice {
  instanceType: string;
  device: 'cuda' | 'cpu';
  /** Config `inferenceAmiVersion`, unset when undefined. */
  configured?: string;
  imageCuda: CudaVersion;
}

/**
 * The InferenceAmiVersion to set (undefined: none), or an error naming the config key. A CPU
 * instance takes none: SageMaker's inference AMIs are for GPU and Neuron instances. On an NVIDIA
 * instance the default is DEFAULT_INFERENCE_AMI, and the driver must run the image's CUDA.
 */
export function chooseInferenceAmi(choice: AmiChoice): string | undefined {
  const accelerator = instanceAccelerator(choice.instanceType);
  if (choice.device === 'cuda' && accelerator !== 'nvidia') {
    throw new Error(
      `config 'device' is cuda but config 'instanceType' ${choice.instanceType} has no NVIDIA GPU: use an ml.g*/ml.p* type or device cpu`,
    );
  }
  if (choice.configured !== undefined && !(choice.configured in inferenceAmis)) {
    throw new Error(
      `config 'inferenceAmiVersion' '${choice.configured}' is not one of ${Object.keys(inferenceAmis).join(', ')}`,
    );
  }
  if (accelerator === 'none') {
    if (choice.configured !== undefined) {
      throw new Error(
        `config 'inferenceAmiVersion' must be unset for the CPU instance type ${choice.instanceType}: inference AMIs are for GPU and Neuron instances`,
      );
    }
    return undefined;
  }
  const ami =
    choice.configured ?? (accelerator === 'nvidia' && choice.device === 'cuda' ? DEFAULT_INFERENCE_AMI : undefined);
  if (ami === undefined) return undefined; // device cpu on an accelerated instance: the default driver is fine
  const details = inferenceAmis[ami]!;
  if (details.accelerator !== accelerator) {
    throw new Error(
      `config 'inferenceAmiVersion' ${ami} is for ${details.accelerator} instances, not ${choice.instanceType}`,
    );
  }
  const cuda = `${choice.imageCuda.major}.${choice.imageCuda.minor}`;
  if (choice.device === 'cuda' && !cudaRuns(choice.imageCuda, details.maxCuda!)) {
    throw new Error(
      `config 'inferenceAmiVersion' ${ami} runs NVIDIA driver ${details.driver} (CUDA <= ${details.maxCuda}), which cannot run the image's CUDA ${cuda} (container/Dockerfile ARG CUDA_IMAGE)`,
    );
  }
  return ami;
}
