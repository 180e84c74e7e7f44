/**
 * The words of each language: for every concept the people and staff meet (selfie, documents,
 * phone, taking a photo, recording a video, …), the term every message uses, the terms it must
 * not use and why, and the grammatical gender where an article or possessive depends on it.
 * `glossary.test.ts` walks every locale file and every flow's `translations` against it.
 *
 * Spanish serves Argentina and Mexico: neutral Latin-American Spanish, tú forms (no vosotros, no
 * voseo), none of Spain's, Argentina's or Mexico's own words where a shared one exists.
 * Portuguese is Brazil's: você, Brazilian words, none of Portugal's.
 */

export type GlossaryLanguage = 'en' | 'es' | 'pt';
export type Gender = 'masculine' | 'feminine';

/** A term not to use: `words` is a regular expression source matched as whole words, any case. */
export interface AvoidedTerm {
  words: string;
  why: string;
}

export interface Term {
  /** The term to use, as written mid-sentence. */
  use: string;
  /** Where an article or possessive agrees with it (es, pt). */
  gender?: Gender;
  avoid: AvoidedTerm[];
}

/** The document types the wizard and the console name (`documentTypes.*` in their locales). */
export const glossaryDocumentTypes = [
  'national-id',
  'passport',
  'driving-license',
  'proof-of-residency',
] as const;
export type GlossaryDocumentType = (typeof glossaryDocumentTypes)[number];

export interface Glossary {
  terms: Record<string, Term>;
  /** Document names, lower case mid-sentence; a label capitalises the first letter only. */
  documents: Record<GlossaryDocumentType, Term>;
}

/** Proper nouns and acronyms written in capitals wherever they stand. */
export const properNouns = [
  'INE',
  'DNI',
  'CURP',
  'RFC',
  'CPF',
  'CUIT',
  'CNH',
  'RG',
  'ID',
  'QR',
  'PDF',
  'MRZ',
];

const oneWord = 'one word for one thing in every screen';

export const glossaries: Record<GlossaryLanguage, Glossary> = {
  en: {
    terms: {
      selfie: { use: 'selfie', avoid: [{ words: 'selfi|self-portrait', why: oneWord }] },
      selfieVideo: {
        use: 'selfie video',
        avoid: [{ words: 'video selfie', why: 'English puts the noun last: a selfie video' }],
      },
      phone: {
        use: 'phone',
        avoid: [{ words: 'mobile(?: phone)?|cell ?phone|smartphone', why: oneWord }],
      },
      computer: { use: 'computer', avoid: [{ words: 'PC', why: oneWord }] },
      takePhoto: { use: 'take (a photo)', avoid: [{ words: 'snap', why: oneWord }] },
      recordVideo: {
        use: 'record (a video)',
        avoid: [{ words: '(?:take|film|shoot) (?:a|the) video', why: 'a video is recorded' }],
      },
      upload: { use: 'upload', avoid: [{ words: 'attach', why: oneWord }] },
    },
    documents: {
      'national-id': { use: 'national ID card', avoid: [] },
      passport: { use: 'passport', avoid: [] },
      'driving-license': {
        use: 'driving licence',
        avoid: [{ words: "driver'?s licen[cs]e", why: 'the locale spells British English' }],
      },
      'proof-of-residency': {
        use: 'proof of address',
        avoid: [{ words: 'proof of residency', why: 'the API type’s name; people say proof of address' }],
      },
    },
  },
  es: {
    terms: {
      selfie: {
        use: 'selfie',
        gender: 'feminine',
        avoid: [
          {
            words: 'selfi|autofoto',
            why: 'one spelling: “selfie” (la selfie) is what apps in Argentina and Mexico and the flows write',
          },
        ],
      },
      selfieVideo: {
        use: 'video selfie',
        gender: 'masculine',
        avoid: [{ words: 'vídeos?', why: 'Spain’s stress: Latin America says “video”' }],
      },
      phone: {
        use: 'teléfono',
        gender: 'masculine',
        avoid: [
          { words: 'móvil(?:es)?', why: 'Spain only' },
          {
            words: 'celular(?:es)?',
            why: `right in Argentina and Mexico, but the locale says “teléfono”: ${oneWord}`,
          },
        ],
      },
      computer: {
        use: 'computadora',
        gender: 'feminine',
        avoid: [
          { words: 'ordenador(?:es)?', why: 'Spain only' },
          { words: 'computador(?:es)?', why: 'Chile and Colombia; Argentina and Mexico say “computadora”' },
        ],
      },
      file: { use: 'archivo', avoid: [{ words: 'ficheros?', why: 'Spain only' }] },
      takePhoto: {
        use: 'tomar (una foto)',
        avoid: [
          {
            words: 'sac(?:a|ar|as|ó|ala|arla|ada|ado|adas|ados)',
            why: 'Spain and Argentina; Mexico says “tomar”',
          },
          { words: 'hac(?:er|é|e) una foto', why: 'Spain only' },
          {
            words: 'cog(?:e|er|erla|erlo|es|ido|ida)',
            why: 'Spain’s “take”; vulgar in Argentina and Mexico',
          },
          {
            words: 'tomad[ao]s? con la cámara',
            why: 'the label also shows under a video, which is recorded (grabado), not taken',
          },
        ],
      },
      recordVideo: {
        use: 'grabar (un video)',
        avoid: [{ words: 'film(?:a|ar|ó)|tom(?:a|ar) un video', why: 'a video is “grabado”' }],
      },
      upload: {
        use: 'subir (un archivo)',
        avoid: [
          {
            words: 'carg(?:a|ar|ue) (?:un|el|tu|la|una) (?:archivo|foto)',
            why: '“cargar” also reads as loading',
          },
        ],
      },
      retake: {
        use: 'repetir, tomar de nuevo',
        avoid: [
          { words: 'retom(?:a|ar)', why: 'means to resume' },
          { words: 'volver a sacar', why: 'see “tomar”' },
        ],
      },
      enter: {
        use: 'ingresar, escribir (a value)',
        avoid: [{ words: 'introduc(?:e|ir|es|iendo)', why: 'Spain’s word for typing a value in' }],
      },
      turnOver: {
        use: 'dar la vuelta (al documento)',
        avoid: [
          { words: 'd(?:a|ar|é) vuelta', why: 'Argentina only; in Mexico it means turning a corner' },
          { words: 'volte(?:a|ar)', why: 'Mexico only' },
        ],
      },
      face: {
        use: 'cara',
        gender: 'feminine',
        avoid: [{ words: 'rostros?', why: `the person reads “cara” on every other screen: ${oneWord}` }],
      },
      glasses: {
        use: 'lentes',
        avoid: [
          { words: 'gafas', why: 'Spain only' },
          { words: 'anteojos', why: 'Argentina only' },
        ],
      },
      faceCovering: {
        use: 'lo que te cubra la cara',
        avoid: [
          { words: 'mascarillas?', why: 'Spain' },
          { words: 'barbijos?', why: 'Argentina only' },
          { words: 'cubrebocas', why: 'Mexico only' },
        ],
      },
      expired: {
        use: 'vencer, vencido',
        avoid: [
          { words: 'caduc(?:ó|a|ado|ada|ar)', why: 'documents and links “vencen” in Argentina and Mexico' },
        ],
      },
      address: {
        use: 'tú (Elige, Toma, puedes)',
        avoid: [
          { words: 'vosotr[oa]s|vuestr[oa]s?|\\p{L}+(?:áis|éis)', why: 'vosotros is Spain only' },
          {
            words: 'vos|pod[ée]s|ten[ée]s|quer[ée]s|sos|mirá|tomá|elegí|subí|poné|hacé',
            why: 'voseo is Argentina only',
          },
          { words: 'vale', why: 'Spain’s “OK”' },
        ],
      },
    },
    documents: {
      'national-id': {
        use: 'documento nacional de identidad',
        gender: 'masculine',
        avoid: [
          { words: 'cédula(?: de identidad)?', why: 'neither Argentina’s nor Mexico’s name' },
          { words: 'carn[ée]t?(?: de identidad)?', why: 'Spain only' },
        ],
      },
      passport: { use: 'pasaporte', gender: 'masculine', avoid: [] },
      'driving-license': {
        use: 'licencia de conducir',
        gender: 'feminine',
        avoid: [
          { words: '(?:carn[ée]t?|permiso) de conducir', why: 'Spain only' },
          { words: 'registro de conducir', why: 'Argentina only' },
          { words: 'licencia de manejo', why: 'Mexico only' },
        ],
      },
      'proof-of-residency': {
        use: 'comprobante de domicilio',
        gender: 'masculine',
        avoid: [
          { words: 'justificante de domicilio', why: 'Spain only' },
          { words: 'constancia de domicilio', why: oneWord },
        ],
      },
    },
  },
  pt: {
    terms: {
      selfie: {
        use: 'selfie',
        gender: 'feminine',
        avoid: [{ words: 'selfi|autorretrato', why: 'one spelling: a selfie' }],
      },
      selfieVideo: {
        use: 'vídeo selfie',
        gender: 'masculine',
        avoid: [{ words: 'video', why: 'Portuguese writes “vídeo”' }],
      },
      phone: {
        use: 'celular',
        gender: 'masculine',
        avoid: [
          { words: 'telemóve(?:l|is)', why: 'Portugal only' },
          { words: 'smartphones?', why: 'in Brazil the phone with a camera is the “celular”' },
        ],
      },
      computer: { use: 'computador', gender: 'masculine', avoid: [{ words: 'ordenador', why: 'Spanish' }] },
      device: {
        use: 'dispositivo',
        gender: 'masculine',
        avoid: [{ words: 'aparelhos?', why: oneWord }],
      },
      file: { use: 'arquivo', avoid: [{ words: 'ficheiros?', why: 'Portugal only' }] },
      screen: { use: 'tela', avoid: [{ words: 'ecrã', why: 'Portugal only' }] },
      takePhoto: {
        use: 'tirar (uma foto)',
        avoid: [
          { words: 'bat(?:er|a) (?:uma )?fotos?', why: 'slang' },
          {
            words: 'tirad[ao]s? com a câmera',
            why: 'the label also shows under a video, which is recorded (gravado), not taken',
          },
        ],
      },
      recordVideo: {
        use: 'gravar (um vídeo)',
        avoid: [{ words: 'filmar?|tir(?:ar|e) um vídeo', why: 'a video is “gravado”' }],
      },
      upload: {
        use: 'enviar (um arquivo)',
        avoid: [{ words: 'fazer (?:o )?upload|carreg(?:ar|ue) (?:um|o|seu) arquivo', why: oneWord }],
      },
      retake: { use: 'refazer, tirar de novo', avoid: [{ words: 'retom(?:ar|e)', why: 'means to resume' }] },
      enter: { use: 'digitar, informar (a value)', avoid: [{ words: 'introduz(?:a|ir)', why: 'Portugal' }] },
      address: {
        use: 'você',
        avoid: [{ words: 'tu|teu|tua|teus|tuas|vós', why: 'Brazilian screens address the person as você' }],
      },
    },
    documents: {
      'national-id': {
        use: 'carteira de identidade',
        gender: 'feminine',
        avoid: [{ words: 'bilhete de identidade|cartão de cidadão', why: 'Portugal only' }],
      },
      passport: { use: 'passaporte', gender: 'masculine', avoid: [] },
      'driving-license': {
        use: 'carteira de motorista',
        gender: 'feminine',
        avoid: [{ words: 'carta de condução', why: 'Portugal only' }],
      },
      'proof-of-residency': {
        use: 'comprovante de residência',
        gender: 'masculine',
        avoid: [
          { words: 'comprovante de endereço', why: oneWord },
          { words: 'comprovativo de morada', why: 'Portugal only' },
        ],
      },
    },
  },
};

/**
 * A document's name as it reads inside a sentence: its capitalised words lower-cased
 * ("National ID card" → "national ID card", "Carteira de identidade" → "carteira de identidade"),
 * acronyms kept (INE, DNI, ID). Labels keep the capitalised name.
 */
export function inSentence(name: string): string {
  return name.replace(
    /(^|[\s(])(\p{Lu})(?=\p{Ll})/gu,
    (_, before: string, letter: string) => before + letter.toLocaleLowerCase(),
  );
}
