// The voice picker, filled from the agent's voice list (POST {"voices": true} to the endpoint the
// turns use), grouped by language (one <optgroup> each, English first), with the agent's default
// voice chosen. Voices the deployment does not speak (Japanese, Mandarin) are listed, disabled,
// with the reason as their title. Each option carries its turn language (ISO 639-1).
import { post } from './transports.js';

const LANGUAGES = {
  'en-us': 'American English',
  'en-gb': 'British English',
  es: 'Spanish',
  'fr-fr': 'French',
  hi: 'Hindi',
  it: 'Italian',
  'pt-br': 'Brazilian Portuguese',
  ja: 'Japanese',
  zh: 'Mandarin Chinese',
};

/** The turn request's `language` of a voice-list language tag ("pt-br" -> "pt"). */
export const turnLanguage = (tag) =>
  String(tag ?? '')
    .split('-')[0]
    .toLowerCase();

async function fetchVoices(endpoint, sessionId) {
  const res = await post(endpoint, sessionId, { voices: true });
  return res.json();
}

function voiceOption(v, preferred) {
  const option = document.createElement('option');
  option.value = v.id;
  const about = [v.gender?.toLowerCase(), v.overall_grade ? `grade ${v.overall_grade}` : null].filter(Boolean);
  option.textContent = `${v.name ?? v.id}${about.length ? ` (${about.join(', ')})` : ''}`;
  option.selected = v.id === preferred;
  option.dataset.language = turnLanguage(v.language);
  if (v.unavailable) {
    option.disabled = true;
    option.title = v.unavailable;
    option.textContent += ' (not spoken here)';
  }
  return option;
}

/** Fills `picker`; without a voice list it offers the default voice only, and `onMissing` says why. */
export async function loadVoices(picker, onMissing, endpoint, sessionId) {
  try {
    const { voices, default: preferred } = await fetchVoices(endpoint, sessionId);
    const groups = new Map();
    for (const v of voices) {
      const label = LANGUAGES[v.language] ?? v.language;
      if (!groups.has(label)) groups.set(label, Object.assign(document.createElement('optgroup'), { label }));
      groups.get(label).append(voiceOption(v, preferred));
    }
    picker.replaceChildren(...groups.values());
    picker.disabled = voices.length === 0;
  } catch (err) {
    // An empty value: the request then names no voice (an option's value is its text otherwise).
    picker.replaceChildren(Object.assign(document.createElement('option'), { value: '', textContent: 'default' }));
    onMissing(`No voice list (${err.message}): the agent's default voice speaks.`);
  }
}
