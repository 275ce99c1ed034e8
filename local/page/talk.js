// Talk: a hands-free conversation with the agent. The microphone (microphone.js) streams to a voice
// session on the turn WebSocket (voice-socket.js); the customer's words show as they are heard
// (partials replaced, then the final), and each of the agent's answers plays and is shown like a
// typed prompt's. Speech over an answer (the page's own Silero VAD, barge-in-vad.js) stops its
// playback at once and tells the agent how much was heard (`barge_in`), so the agent keeps only
// that. Pressing the button again sends `listen_end` and lets go of the microphone.
import { loadBargeInVad } from './barge-in-vad.js';
import { MicrophoneError, openMicrophone } from './microphone.js';
import { onTurnEvent } from './turn-events.js';
import { state } from './turn-state.js';
import { addNotice, setStatus } from './view.js';
import { VoiceSocket } from './voice-socket.js';
import { LoudOnsets } from './loud-onsets.js';

/** Frames captured before the agent listens are held, up to 2 s of them (40 ms each). */
const HELD_FRAMES = 50;

/**
 * Wires the Talk button. `app`: {wsClient, player, interrupt(), openTurn(prompt, how),
 * closeTurn(turn), settings() (the turn settings of a request, without the prompt)}.
 */
export function setUpTalk(button, transcriptEl, app) {
  let talk = null; // the conversation by voice under way
  let ending = null; // the voice session last stopped, until the agent has ended it
  /** Where barge-in stood, for tests and the benchmark (window.kokoro.talk()). */
  const log = {
    onsets: [],
    vadOnsets: [],
    cuts: [],
    frames: 0,
    dropped: 0,
    vad: 'off',
    micLive: null,
    vadFrames: 0,
    vadMax: 0,
  };

  const show = (text, final) => {
    transcriptEl.hidden = false;
    transcriptEl.textContent = text;
    transcriptEl.classList.toggle('partial', !final);
  };
  const setButton = (on) => {
    button.textContent = on ? 'Stop talking' : 'Talk';
    button.setAttribute('aria-pressed', String(on));
  };

  /** The customer spoke over the answer long enough: silence it now, then tell the agent. */
  function cutByVoice() {
    const turn = state.active;
    if (!talk || !turn?.voice || turn.finished) return;
    const cut = { turn: turn.n, vadAt: performance.now(), onsetAt: log.vadOnsets.at(-1) ?? null };
    log.cuts.push(cut);
    app.interrupt().then(() => {
      cut.playedMs = turn.playedMs;
    });
    cut.stoppedAt = performance.now(); // the worklet was told to flush: silent at its next render quantum
  }

  function voiceHandlers(t) {
    return {
      listening() {
        t.listening = true;
        setStatus('Listening: speak, and the agent answers.');
        for (const pcm of t.held.splice(0)) t.socket.audio(pcm);
      },
      transcript(event) {
        show(event.text, event.final);
        if (!event.final) return;
        app.interrupt(); // whatever still plays is over: the customer's turn ended
        t.next = app.openTurn(event.text, 'voice');
        t.next.voice = t.socket;
      },
      turn(event) {
        if (event.type === 'start') {
          t.turn = t.next ?? Object.assign(app.openTurn('(spoken)', 'voice'), { voice: t.socket });
          t.next = null;
        }
        const turn = t.turn;
        if (!turn) return;
        if (event.type === 'done' && event.cancelled && !turn.cancelled) app.interrupt(); // cut by the agent's own VAD
        onTurnEvent(turn, event, app.player);
        if (event.type === 'done') {
          t.turn = null;
          app.closeTurn(turn);
        }
      },
      error(event) {
        const message = `${event.code}: ${event.message}`;
        if (!t.listening && t === talk) return stop(`Talk refused: ${message}`);
        if (t.next && !/^(stt_|audio_|no_speech)/.test(event.code)) {
          t.next.error = message; // refused before it started
          app.closeTurn(t.next);
          t.next = null;
        }
        setStatus(`Error: ${message}`);
      },
      ended(event) {
        if (t !== talk && talk) return;
        const status = `Stopped talking (${event.turns} ${event.turns === 1 ? 'turn' : 'turns'}).`;
        setStatus(status);
        // An answer still playing says so again when it ends, rather than "Done.": the session's end
        // is the last thing the customer did.
        if (state.active && !state.active.finished) state.active.finishedStatus = status;
      },
      closed(why) {
        if (why && t === talk) stop(`Talking stopped: ${why}`);
      },
    };
  }

  async function start() {
    const t = { socket: null, mic: null, vad: null, held: [], listening: false, next: null, turn: null };
    talk = t;
    setButton(true);
    const ws = document.getElementById('t-ws');
    if (!ws.checked) {
      ws.checked = true; // a voice session needs the WebSocket (SSE carries nothing upstream)
      addNotice('Talk uses the WebSocket transport (SSE cannot carry the microphone upstream): switched to it.');
    }
    app.player.resume();
    setStatus('Loading the voice detector…');
    const vad = await loadBargeInVad({
      onSpeechStart: () => log.vadOnsets.push(performance.now()),
      onSpeech: () => t === talk && cutByVoice(),
      onFrame: (p) => {
        log.vadFrames++;
        log.vadMax = Math.max(log.vadMax, p);
      },
    }).catch((err) => {
      log.vad = `unavailable: ${err.message}`;
      // The agent's own VAD still cuts the answer; the page then stops playback at its done.
      addNotice(`Barge-in is detected by the agent only (the page's voice detector did not start: ${err.message}).`);
      return null;
    });
    if (t !== talk) return vad?.close();
    setStatus('Opening the microphone…');
    const onsets = new LoudOnsets((at) => log.onsets.push(at));
    try {
      t.mic = await openMicrophone((pcm, end) => {
        log.frames++;
        onsets.frame(new Int16Array(pcm), end);
        if (t.listening) t.socket.audio(pcm);
        else if (t.held.length < HELD_FRAMES) t.held.push(pcm);
      });
    } catch (err) {
      vad?.close();
      if (t === talk) stop(err instanceof MicrophoneError ? err.message : `The microphone failed: ${err.message}`);
      return;
    }
    if (t !== talk) {
      vad?.close();
      return t.mic.close(); // stopped while the browser asked for permission
    }
    if (vad) {
      t.vad = vad;
      await vad.start(t.mic.stream, t.mic.ctx).then(
        () => (log.vad = 'silero'),
        (err) => (log.vad = `unavailable: ${err.message}`),
      );
    }
    setStatus('Connecting…');
    // One voice session per socket: the one stopped last ends once its last answer is in.
    if (ending) await Promise.race([ending.done, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (t !== talk) return;
    try {
      const socket = await VoiceSocket.open(app.wsClient, state.sessionId, app.settings(), voiceHandlers(t));
      if (t === talk) t.socket = socket;
      else socket.end(); // stopped while it connected
    } catch (err) {
      if (t === talk) stop(`Talk could not connect: ${err.message}`);
    }
  }

  /** Stops talking: the session ends (what was heard is still answered), the microphone is let go. */
  function stop(status = 'Stopping…') {
    const t = talk;
    talk = null;
    setButton(false);
    if (!t) return;
    log.dropped += t.socket?.dropped ?? 0;
    ending = t.socket;
    t.socket?.end();
    t.vad?.close();
    log.micLive = t.mic ? true : null;
    t.mic?.close().then(() => {
      log.micLive = t.mic.stream.getTracks().some((track) => track.readyState === 'live');
    });
    setStatus(status);
  }

  button.addEventListener('click', () => (talk ? stop() : start()));
  return {
    active: () => talk !== null,
    stop: () => stop('Stopped talking.'),
    report: () => ({ ...log, talking: talk !== null, listening: talk?.listening ?? false }),
  };
}
