// Brazilian Portuguese: the forms espeak-ng's pt-BR voice misreads (shared/espeak-forms.ts says which).
import { espeakRules } from '../shared/espeak-forms.ts';

export const PORTUGUESE_RULES = espeakRules({
  months: [
    'janeiro',
    'fevereiro',
    'março',
    'abril',
    'maio',
    'junho',
    'julho',
    'agosto',
    'setembro',
    'outubro',
    'novembro',
    'dezembro',
  ],
  dateJoins: [' de ', ' de '],
  time: [' e ', ''],
  oclock: ' horas',
  decimalComma: 'vírgula',
  dotThousands: true,
  dottedOrdinals: true,
  currencies: { R$: ['real', 'reais'], '€': ['euro', 'euros'], $: ['dólar', 'dólares'] },
  centsJoin: 'e',
  cents: 'centavos',
  units: {
    km: ['quilômetro', 'quilômetros'],
    'km/h': ['quilômetro por hora', 'quilômetros por hora'],
    cm: ['centímetro', 'centímetros'],
    mm: ['milímetro', 'milímetros'],
    m: ['metro', 'metros'],
    kg: ['quilo', 'quilos'],
    g: ['grama', 'gramas'],
    ml: ['mililitro', 'mililitros'],
  },
});
