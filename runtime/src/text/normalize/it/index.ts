// Italian: the forms espeak-ng's Italian voice misreads (shared/espeak-forms.ts says which).
import { espeakRules } from '../shared/espeak-forms.ts';

export const ITALIAN_RULES = espeakRules({
  months: [
    'gennaio',
    'febbraio',
    'marzo',
    'aprile',
    'maggio',
    'giugno',
    'luglio',
    'agosto',
    'settembre',
    'ottobre',
    'novembre',
    'dicembre',
  ],
  dateJoins: [' ', ' '],
  time: [' e ', ''],
  oclock: '',
  decimalComma: 'virgola',
  dotThousands: true,
  dottedOrdinals: true,
  currencies: { '€': ['euro', 'euro'], $: ['dollaro', 'dollari'], '£': ['sterlina', 'sterline'] },
  centsJoin: 'e',
  units: {
    km: ['chilometro', 'chilometri'],
    'km/h': ['chilometro orario', 'chilometri orari'],
    cm: ['centimetro', 'centimetri'],
    mm: ['millimetro', 'millimetri'],
    m: ['metro', 'metri'],
    kg: ['chilo', 'chili'],
    g: ['grammo', 'grammi'],
    ml: ['millilitro', 'millilitri'],
  },
});
