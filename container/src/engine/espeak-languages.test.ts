// The done criterion of the espeak languages: for each sentence, the container's phonemes equal
// what misaki's espeak path gives. The expected strings are misaki's own output: misaki/espeak.py
// (EspeakG2P) and bootphon/phonemizer, at the commits docs/design/languages.md names, run on
// Debian's libespeak-ng 1.51, for sentences where that espeak-ng and the wasm build the container
// ships phonemise alike (59 of the 60 written for this test: docs/design/languages.md, "How the
// expected strings were made").
import { describe, expect, test } from '@jest/globals';
import { phonemize } from './g2p.ts';
import type { LanguageCode } from './languages.ts';

const CODE: Record<string, LanguageCode> = { es: 'e', 'fr-fr': 'f', hi: 'h', it: 'i', 'pt-br': 'p' };

const MISAKI: Record<string, [text: string, phonemes: string][]> = {
  es: [
    ['¡Hola! ¿Cómo estás?', '¡ˈola! ¿kˈomo estˈas?'],
    [
      'Buenos días, me llamo Dora y trabajo en atención al cliente.',
      'bwˈenos ðˈias, me ʎˈamo ðˈoɾa i tɾaβˈaxo en ˌatenθjˈon al kliˈɛnte.',
    ],
    [
      'El pedido número 4521 llegará el 3 de mayo de 2025.',
      'el peðˈiðo nˈumeɾo kwˈatɾo mˈil kinjˈɛntos βˌAntiˈuno ʎˌeɣaɾˈa el tɾˈes ðe mˈaʝo ðe ðˈos mˈil βAntiθˈinko.',
    ],
    [
      'La Sra. García pagó 19,99 € (IVA incluido).',
      'la seɲˈoɾa. ɡaɾθˈia paɣˈo ðjˌɛθinwˈeβe,noβˌɛntainwˈeβe ˈeʊɾo (ˌiˌuβeˈa ˌinkluˈiðo).',
    ],
    ['«No lo sé», dijo el niño; luego se fue corriendo…', '“nˈo lo sˈe”, dˈixo el nˈiɲo; luˈeɣo se fwˈe kˌoriˈɛndo…'],
    ['¿Quieres café, té o zumo de naranja?', '¿kjˈeɾes kafˈe, tˈe o θˈumo ðe naɾˈaŋxa?'],
    [
      'El perro de San Roque no tiene rabo porque Ramón Rodríguez se lo ha cortado.',
      'el pˈero ðe sˈan rˈoke nˈo tjˈene rˈaβo pˌoɾke ramˈon roðɾˈiɣeθ se lo ˈa koɾtˈaðo.',
    ],
    [
      'Son las 10:30 de la mañana y hace 25 °C.',
      'sˈon las ðjˈɛθ:tɾˈAnta ðe la maɲˈana i ˈaθe βˌAntiθˈinko ɣɾˈaðos θˈe.',
    ],
    ['Visité Nueva York, Londres y París el año pasado.', 'bˌisitˈe nwˈeβa ʝˈoɾk, lˈondɾes i paɾˈis el ˈaɲo pasˈaðo.'],
    [
      'Mi correo es ana@example.com — escríbeme cuando quieras.',
      'mi korˈeo ˈes ˈana arˈoβa eksˈample.kˈom — eskɾˈiβeme kwˌando kjˈeɾas.',
    ],
    ['Chocolate, churros y jamón ibérico: ¡qué rico!', 'ʧˌokolˈate, ʧˈuros i xamˈon iβˈeɾiko: ¡kˈe rˈiko!'],
    ['Hello world, this is English inside Spanish.', 'ˈeʎo wˈoɾld, tˈis ˈis ˈiŋɡliʃ insˈiðe spˈaniʃ.'],
  ],
  'fr-fr': [
    ['Bonjour, je suis très heureux de vous rencontrer.', 'bɔ̃ʒˈuʁ, ʒə syˌi tʁɛz øʁˈø də vu ʁɑ̃kɔ̃tʁˈe.'],
    ['Les enfants jouent dans le jardin avec leurs amis.', 'lez ɑ̃fˈɑ̃ ʒw dɑ̃ lə ʒaʁdˈɛ̃ avˌɛk lœʁz amˈi.'],
    ['Il y a 3 pommes, 12 poires et 1 000 habitants.', 'il i a tʁwˈa pˈɔm, dˈuz pwˈaʁz e mˈil abitˈɑ̃.'],
    ['« Tu viens ce soir ? » demanda-t-elle.', '“ ty vjˈɛ̃ sə swˈaʁ ? ” dəmɑ̃dˈatˈɛl.'],
    ['Votre rendez-vous est confirmé pour demain à 15 h 30.', 'votʁ ʁɑ̃dˈevuz ɛ kɔ̃fiʁmˈe puʁ dəmˈɛ̃ a kˈɛ̃z ˈaʃ tʁˈɑ̃t.'],
    [
      "L'hôpital se trouve au 42, rue de la Paix (Paris 2e).",
      'lopitˈal sə tʁˈuv o kaʁɑ̃tdˈø, ʁˈy də la pˈɛ (paʁˈi dˈø ˈə).',
    ],
    ["C'est incroyable ! Vraiment ?", 'sɛt ɛ̃kʁwajˈabl ! vʁɛmˈɑ̃ ?'],
    [
      'Un bon vin blanc, un pain brun et un parfum : voilà tout.',
      'œ̃ bˈɔ̃ vˈɛ̃ blˈɑ̃, œ̃ pˈɛ̃ bʁˈœ̃ e œ̃ paʁfˈœ̃ : vwalˌa tˈu.',
    ],
    ["Qu'est-ce que tu en penses ; c'est juste ?", 'kɛskˌə ty ɑ̃ pˈɑ̃s ; sɛ ʒˈyst ?'],
    ["Aujourd'hui, le temps est magnifique…", 'oʒuʁdyˈi, lə tˈɑ̃ ɛ maɲifˈik…'],
    ["J'ai acheté 2,5 kg de fromage.", 'ʒe aʃtˈe dˈø,sˈɛ̃k kilɔɡʁˈam də fʁomˈaʒ.'],
    ["The meeting is at noon, d'accord ?", 'ðə mˈiːtɪŋ ɪz at nˈuːn, dakˈɔʁ ?'],
  ],
  hi: [
    ['नमस्ते, आप कैसे हैं?', 'nəmˈʌsteː, ˌaːp kˈɛːseː hɛ̃?'],
    ['मेरा नाम राहुल है और मैं दिल्ली में रहता हूँ।', 'mˌeːɾaː nˈaːm ɾˈaːhʊl hɛː ɔːɾ mɛ̃ dˈɪlli mẽː ɾˈʌhətˌaː hũ'],
    ['आपका ऑर्डर कल शाम तक आपके घर पहुँच जाएगा।', 'ˌaːpkˌaː ˈɔɾɖəɾ kˈʌl ʃˈaːm tˌək ˌaːpkˌeː ɡʰˈʌɾ pəhˈũnc ɟaːˈeːɡaː'],
    [
      'भारत एक विशाल देश है, जिसकी जनसंख्या 140 करोड़ है।',
      'bʰˈaːɾət ˈeːk ʋɪʃˈaːl dˈeːʃ hɛː, ɟˈɪskˌi ɟˌənəsˈʌŋkʰjaː ˈeːksˈɔː cˈaːlis kəɾˈoːr. hɛː',
    ],
    ['क्या आप मुझे बता सकते हैं कि स्टेशन कहाँ है?', 'kːjaː ˌaːp mˌʊɟʰeː bˈʌtaː sˈʌktˌeː hɛ̃ kˈɪ sʈˈeːʃən kˈʌhã hɛː?'],
    ['धन्यवाद! फिर मिलेंगे।', 'dʰˌənjəʋˈaːd! pʰˈɪɾ mɪlˈẽːɡeː'],
    [
      'यह किताब बहुत अच्छी है (मैंने इसे दो बार पढ़ा)।',
      'jˌəh kɪtˈaːb bˈʌhʊt ˈʌcʰcʰi hɛː (mˈɛ̃neː ˈɪseː dˈoː bˈaːɾ pˈʌr.haː)pˈuːrnwɪɾˈaːm',
    ],
    ['कृपया अपना फ़ोन नंबर बताइए।', 'kɾˈɪpjˌaː ˈʌpnˌaː fˈoːn nˈʌmbəɾ bətˈaːɪˌeː'],
    ['आज मौसम सुहाना है; चलो घूमने चलें।', 'ˈaːɟ mˈɔːsəm sʊhˈaːnaː hɛː; cˈʌloː ɡʰˈuːmnˌeː cˈʌlẽː'],
    ['मुझे "चाय" और समोसे पसंद हैं।', 'mˌʊɟʰeː "cˈaːj" ɔːɾ səmˈoːseː pəsˈʌnd hɛ̃'],
    ['Hello, मैं ठीक हूँ।', 'həlˈQ, mɛ̃ ʈʰˈiːk hũ'],
    ['ज़िंदगी खूबसूरत है।', 'zˈĩdɡˌi kʰˌuːbsˈuːɾət hɛː'],
  ],
  it: [
    ['Ciao, come stai? La pizza è buonissima.', 'ʧˈao, kˌome stˈaj? la pˈiʦːa e bʊonˈiSima.'],
    ['Gli gnocchi sono pronti, vuoi assaggiare?', 'ʎɪ ɲˈokːɪ sˌono prˈontɪ, vʊˈɔi aSaʤːˈare?'],
    ['Il signor Rossi ha comprato 2 chili di zucchero.', 'il siɲˈor rˈoSɪ a komprˈato dˈue kˈilɪ dɪ ʣˈukːeɾo.'],
    [
      'Il pacco è stato spedito ieri e arriverà entro venerdì.',
      'il pˈakːo e stˈato spedˈito jˈɛrɪ e arɾiveɾˈa ˈentro venerdˈi.',
    ],
    ['«Che bella giornata!» disse la ragazza.', '“ke bˈɛlla ʤornˈata!” dˈiSe la raɡˈaʦːa.'],
    [
      'Sono le 9:45; il treno parte dal binario 3.',
      'sˌono le nˈɔve:kʊaɾˈaːntaʧˈinkwe; il trˈɛno pˈarte dal binˈario trˈe.',
    ],
    [
      "Mi piacciono la musica (soprattutto l'opera) e il cinema.",
      'mɪ pjˈaʧːono la mˈuzika (sopratːˈutːo lˈɔpera) e il ʧˈinema.',
    ],
    ['Perché no? È una buona idea…', 'perkˌe nˈɔ? e ˌʊna bʊˈɔna idˈɛa…'],
    ['La città di Firenze è famosa per il Rinascimento.', 'la ʧitːˈa dɪ firˈɛnʦe e famˈoza per il rinaʃimˈento.'],
    ['Ho visto la RAI e la BBC ieri sera.', 'o vˈisto la rˈaj e la bˌibˌiʧˈi jˈɛrɪ sˈera.'],
    ['Zio, zucchero e pizza: tre parole con la zeta.', 'ʣˈio, ʣˈukːeɾo e pˈiʦːa: trˈe paɾˈɔle kon la ʣˈɛta.'],
    ['Thank you, grazie mille!', 'tˈaŋk jˈoʊ, ɡrˈaʦje mˈille!'],
  ],
  'pt-br': [
    ['Olá, tudo bem?', 'olˈa, tˈudʊ bˈAŋ?'],
    ['Eu moro no Rio de Janeiro há 10 anos.', 'eʊ mˈɔɾʊ nʊ xˈiʊ ʤy ʒˌænˈAɾw a dˈɛz ˈɐ̃nʊs.'],
    ['Não sei o que fazer com essas informações.', 'nˌɐ̃ʊ̃ sˈA ʊ ky fazˌer koŋ ˈɛsæz ˌiŋfoɾəmasˈõjs.'],
    ['O menino comeu 15 pães no café da manhã.', 'ʊ mˌenˈinʊ komˈeʊ kˈiŋzy pˈɐ̃yz nʊ kafˈɛ da mɐ̃ɲˈɐ̃.'],
    [
      'Seu pedido foi enviado e deve chegar em três dias úteis.',
      'seʊ pˌeʤˈidʊ foɪ ˌAŋviˈadw i dˈɛvy ʃeɡˈaɾ ˈAŋ trˈez ʤˈiæz ˈutAs.',
    ],
    ['"Que saudade!", disse ela (com lágrimas nos olhos).', '"ky sˌWdˈaʤy!", ʤˈisj ˈɛlæ (koŋ lˈaɡrimæz nʊz ˈɔljʊs).'],
    [
      'São 14h30 e o voo está atrasado; paciência…',
      'sɐ̃ʊ̃ kˌatˈoɾəzy aɡˈa trˈiŋtæ i ʊ vˈow estˌa ˌatrazˈadʊ; pˌasjˈAŋsjæ…',
    ],
    ['Você gostaria de um cafezinho ou de um suco?', 'vosˌe ɡˌostaɾˈiæ ʤj ũŋ kˌafezˈiɲw ow ʤj ũŋ sˈukʊ?'],
    ['Obrigado! Até amanhã.', 'ˌobriɡˈadʊ! atˌɛ ˌæmɐ̃ɲˈɐ̃.'],
    ['Coração, mãe, irmão e pão: palavras nasais.', 'kˌoɾasˈɐ̃ʊ̃, mˈɐ̃y, iɾəmˈɐ̃ʊ̃ i pˈɐ̃ʊ̃: pˌalˈavræz nazˈIs.'],
    ['I love Brazil, obrigado!', 'ˈi lˈɔvy brazˈiʊ, ˌobriɡˈadʊ!'],
  ],
};

describe.each(Object.entries(MISAKI))("misaki's espeak path, %s", (language, rows) => {
  test.each(rows)('%s', async (text, phonemes) => {
    expect(await phonemize(text, CODE[language]!)).toBe(phonemes);
  });
});
