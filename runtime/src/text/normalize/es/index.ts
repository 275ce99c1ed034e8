// Spanish: the forms espeak-ng's Spanish voice misreads (shared/espeak-forms.ts says which).
import { espeakRules } from '../shared/espeak-forms.ts';

export const SPANISH_RULES = espeakRules({
  months: [
    'enero',
    'febrero',
    'marzo',
    'abril',
    'mayo',
    'junio',
    'julio',
    'agosto',
    'septiembre',
    'octubre',
    'noviembre',
    'diciembre',
  ],
  dateJoins: [' de ', ' de '],
  time: [' y ', ''],
  oclock: '',
  decimalComma: 'coma',
  dotThousands: true,
  dottedOrdinals: true,
  currencies: { '€': ['euro', 'euros'], $: ['dólar', 'dólares'], '£': ['libra', 'libras'] },
  centsJoin: 'con',
  units: {
    km: ['kilómetro', 'kilómetros'],
    'km/h': ['kilómetro por hora', 'kilómetros por hora'],
    cm: ['centímetro', 'centímetros'],
    mm: ['milímetro', 'milímetros'],
    m: ['metro', 'metros'],
    kg: ['kilogramo', 'kilogramos'],
    g: ['gramo', 'gramos'],
    ml: ['mililitro', 'mililitros'],
  },
});
