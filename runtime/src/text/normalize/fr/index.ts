// French: the forms espeak-ng's French voice misreads (shared/espeak-forms.ts says which). It
// reads "5 km", "1 500" and "1er" itself.
import { espeakRules } from '../shared/espeak-forms.ts';

export const FRENCH_RULES = espeakRules({
  months: [
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ],
  dateJoins: [' ', ' '],
  time: [' heures ', ''],
  oclock: ' heures',
  decimalComma: 'virgule',
  dotThousands: false,
  currencies: { '€': ['euro', 'euros'], $: ['dollar', 'dollars'], '£': ['livre', 'livres'] },
  centsJoin: '',
  units: {},
});
