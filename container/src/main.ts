// Container entry point: `node src/main.ts [serve]` (SageMaker runs `docker run IMAGE serve`).
import { serve } from './serve.ts';

await serve();
