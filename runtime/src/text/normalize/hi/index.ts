// Hindi: the forms espeak-ng's Hindi voice misreads (shared/espeak-forms.ts says which). Hindi
// writes the decimal point and Western digits in numbers; the rupee sign is said after the amount.
import { espeakRules } from '../shared/espeak-forms.ts';

export const HINDI_RULES = espeakRules({
  months: ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'],
  dateJoins: [' ', ' '],
  time: [' बजकर ', ' मिनट'],
  oclock: ' बजे',
  timeWord: 'बजे',
  dotThousands: false,
  currencies: { '₹': ['रुपये', 'रुपये'], $: ['डॉलर', 'डॉलर'] },
  centsJoin: '',
  cents: 'पैसे',
  units: {
    km: ['किलोमीटर', 'किलोमीटर'],
    cm: ['सेंटीमीटर', 'सेंटीमीटर'],
    m: ['मीटर', 'मीटर'],
    kg: ['किलो', 'किलो'],
    g: ['ग्राम', 'ग्राम'],
  },
});
