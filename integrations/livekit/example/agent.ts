// An example LiveKit agent that speaks with Kokoro on SageMaker: the STT and LLM are whatever you
// pick (here LiveKit Inference's model strings; any LiveKit STT and LLM plugin works the same way),
// the TTS is this package. Run it as any LiveKit agent: `node agent.ts dev` (LIVEKIT_URL,
// LIVEKIT_API_KEY and LIVEKIT_API_SECRET set), with SAGEMAKER_ENDPOINT_NAME and AWS_REGION set
// for the endpoint, or KOKORO_URL=ws://127.0.0.1:8080 for a container run by hand.
import { fileURLToPath } from 'node:url';
import { type JobContext, ServerOptions, cli, defineAgent, metrics, voice } from '@livekit/agents';
import { TTS } from '@kokoro-speech/livekit';

export default defineAgent({
  entry: async (ctx: JobContext) => {
    const session = new voice.AgentSession({
      stt: 'deepgram/nova-3',
      llm: 'openai/gpt-4.1-mini',
      // new TTS({ endpointName: 'kokoro', region: 'us-east-1', voice: 'af_heart' }) says the same
      // as the environment; new TTS({ url: 'ws://127.0.0.1:8080/invocations-bidirectional-stream' })
      // speaks into a container run by hand.
      tts: new TTS({ voice: 'af_heart' }),
    });
    session.on(voice.AgentSessionEventTypes.MetricsCollected, (ev) => metrics.logMetrics(ev.metrics));
    await session.start({
      agent: new voice.Agent({
        instructions: 'You are a friendly voice assistant. Answer in plain spoken sentences: no markdown, no lists.',
      }),
      room: ctx.room,
    });
    await ctx.connect();
    session.generateReply({ instructions: 'Greet the user and offer your help.' });
  },
});

cli.runApp(new ServerOptions({ agent: fileURLToPath(import.meta.url) }));
