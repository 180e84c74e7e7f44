// The clean identity documents (AR, MX, BR, passports, a GB proof of residency); the scenarios
// (document-scenarios.ts) are variants of the AR and MX cards defined here.
import { type DocumentSample, writeDocument } from './document-writer';
import { cardSvg, dmy } from './drawing';
import { passport } from './passports';
import { arPdf417Text, pdf417Png } from './pdf417';
import { people } from './people';

const ar = people.ar;
export const arFront: DocumentSample = {
  file: 'ar-national-id-front.jpg',
  docType: 'national-id',
  country: 'AR',
  page: 'front',
  person: ar,
  requires: ['pdf417'],
  note: 'Argentine DNI front, clean (flow ar-national-id)',
  svg: cardSvg({
    colours: ['#b9e3f7', '#f6e7c1'],
    accent: '#1d6fa5',
    title: 'REPÚBLICA ARGENTINA',
    subtitle: 'DOCUMENTO NACIONAL DE IDENTIDAD · SPECIMEN',
    fields: [
      ['Apellido / Surname', ar.lastName],
      ['Nombre / Name', ar.firstName],
      ['Nacimiento / Date of birth', dmy(ar.dateOfBirth)],
      ['Documento / Document', '30.123.456'],
      ['Vencimiento / Expiry', dmy(ar.expiryDate)],
    ],
  }),
};
export const arBackSvg = (withBarcodeFrame: boolean) =>
  cardSvg({
    colours: ['#f6e7c1', '#c9f0d6'],
    accent: '#2a9d8f',
    title: 'REPÚBLICA ARGENTINA · DORSO',
    subtitle: 'SPECIMEN · MINISTERIO DEL INTERIOR',
    photo: 'none',
    pattern: 'grid',
    fields: [
      ['Domicilio / Address', ar.address ?? ''],
      ['CUIL', ar.cuit ?? ''],
    ],
    overlay: withBarcodeFrame
      ? '<rect x="380" y="330" width="580" height="220" fill="#fff"/>'
      : '<rect x="380" y="330" width="580" height="220" fill="#fff"/><text x="670" y="450" text-anchor="middle" font-family="DejaVu Sans" font-size="26" fill="#999">(no barcode)</text>',
    mrz: ['IDARG30123456<0<<<<<<<<<<<<<<<'],
  });
const barcode = await pdf417Png(arPdf417Text(ar));
// A readable symbol whose payload is not a DNI record (the number field garbled).
export const badBarcode = await pdf417Png(arPdf417Text({ ...ar, documentNumber: '3O12E456' }));
export const arBack: DocumentSample = {
  file: 'ar-national-id-back.jpg',
  docType: 'national-id',
  country: 'AR',
  page: 'back',
  person: ar,
  requires: ['pdf417'],
  note: 'Argentine DNI back with a real PDF417 (DNI layout), clean',
  svg: arBackSvg(true),
  composite: [{ input: barcode, left: 390, top: 340 }],
};

const mx = people.mx;
export const mxFront: DocumentSample = {
  file: 'mx-ine-front.jpg',
  docType: 'national-id',
  country: 'MX',
  page: 'front',
  person: mx,
  note: 'Mexican INE front, clean, person with CURP and RFC (flow mx-ine-full)',
  svg: cardSvg({
    colours: ['#f9d5e5', '#d5f5e3'],
    accent: '#9b2335',
    title: 'INSTITUTO NACIONAL ELECTORAL',
    subtitle: 'MÉXICO · CREDENCIAL PARA VOTAR · SPECIMEN',
    fields: [
      ['NOMBRE', mx.fullName],
      ['DOMICILIO', mx.address ?? ''],
      ['CLAVE DE ELECTOR', mx.documentNumber ?? ''],
      ['CURP', mx.curp ?? ''],
      ['FECHA DE NACIMIENTO · VIGENCIA', `${dmy(mx.dateOfBirth)} · ${mx.expiryDate?.slice(0, 4)}`],
    ],
  }),
};
const mxBack: DocumentSample = {
  file: 'mx-ine-back.jpg',
  docType: 'national-id',
  country: 'MX',
  page: 'back',
  person: mx,
  note: 'Mexican INE back with a TD1-style MRZ, clean',
  svg: cardSvg({
    colours: ['#d5f5e3', '#fdebd0'],
    accent: '#117a65',
    title: 'INE · REVERSO',
    subtitle: 'SPECIMEN · RFC ' + (mx.rfc ?? ''),
    photo: 'none',
    pattern: 'grid',
    fields: [['FIRMA / SIGNATURE', '~ M. G. Muestra ~']],
    overlay:
      '<rect x="700" y="150" width="230" height="230" rx="10" fill="#fff" stroke="#117a65" stroke-width="4"/><circle cx="815" cy="265" r="80" fill="none" stroke="#888" stroke-width="6" stroke-dasharray="14 8"/>',
    mrz: [
      'IDMEX1234567890<<0912345678901',
      '9002155M3112315MEX<02<<12345<6',
      'MUESTRA<EJEMPLO<<MARIA<GUADALU',
    ],
  }),
};

/** Writes the clean documents in the manifest's order; returns the AR front's bytes, which a scenario sends again as the back. */
export async function writeDocuments() {
  const arFrontBytes = await writeDocument(arFront);
  await writeDocument(arBack);

  await writeDocument(mxFront);
  await writeDocument(mxBack);

  const br = people.br;
  await writeDocument({
    file: 'br-national-id-front.jpg',
    docType: 'national-id',
    country: 'BR',
    page: 'front',
    person: br,
    note: 'Brazilian RG front, clean; the RG has no expiry date (isDocumentExpired null) (flow br-bank)',
    svg: cardSvg({
      colours: ['#d8f3dc', '#fff3b0'],
      accent: '#2d6a4f',
      title: 'REPÚBLICA FEDERATIVA DO BRASIL',
      subtitle: 'CARTEIRA DE IDENTIDADE · SPECIMEN',
      fields: [
        ['NOME', br.fullName],
        ['REGISTRO GERAL', br.documentNumber],
        ['DATA DE NASCIMENTO', dmy(br.dateOfBirth)],
        ['CPF', br.cpf],
        ['DATA DE EXPEDIÇÃO', dmy(br.issueDate)],
      ],
    }),
  });
  await writeDocument({
    file: 'br-national-id-back.jpg',
    docType: 'national-id',
    country: 'BR',
    page: 'back',
    person: br,
    note: 'Brazilian RG back, clean',
    svg: cardSvg({
      colours: ['#fff3b0', '#bde0fe'],
      accent: '#1b4332',
      title: 'VÁLIDA EM TODO O TERRITÓRIO NACIONAL',
      subtitle: 'SPECIMEN · SECRETARIA DE SEGURANÇA PÚBLICA',
      photo: 'none',
      pattern: 'grid',
      fields: [
        ['FILIAÇÃO', 'MÃE SPECIMEN · PAI SPECIMEN'],
        ['NATURALIDADE', 'SÃO PAULO - SP'],
      ],
      overlay:
        '<rect x="720" y="330" width="220" height="200" rx="10" fill="#fff"/><circle cx="830" cy="430" r="70" fill="none" stroke="#777" stroke-width="5" stroke-dasharray="10 6"/>',
    }),
  });
  const cnh = people.brCnh;
  await writeDocument({
    file: 'br-driving-license-front.jpg',
    docType: 'driving-license',
    country: 'BR',
    page: 'front',
    person: cnh,
    note: 'Brazilian CNH (driving licence) front, clean',
    svg: cardSvg({
      colours: ['#caf0f8', '#d8f3dc'],
      accent: '#0077b6',
      title: 'CARTEIRA NACIONAL DE HABILITAÇÃO',
      subtitle: 'BRASIL · DETRAN · SPECIMEN',
      fields: [
        ['NOME', cnh.fullName],
        ['Nº REGISTRO', cnh.documentNumber],
        ['DATA NASCIMENTO', dmy(cnh.dateOfBirth)],
        ['CPF', cnh.cpf],
        ['VALIDADE', dmy(cnh.expiryDate)],
      ],
    }),
  });
  await writeDocument({
    file: 'br-driving-license-back.jpg',
    docType: 'driving-license',
    country: 'BR',
    page: 'back',
    person: cnh,
    note: 'Brazilian CNH back, clean',
    svg: cardSvg({
      colours: ['#d8f3dc', '#caf0f8'],
      accent: '#023e8a',
      title: 'CNH · VERSO',
      subtitle: 'SPECIMEN · CATEGORIA B',
      photo: 'none',
      pattern: 'grid',
      fields: [
        ['OBSERVAÇÕES', 'EAR · SPECIMEN'],
        ['LOCAL', 'SÃO PAULO, SP'],
      ],
      overlay:
        '<rect x="600" y="160" width="340" height="160" fill="#fff"/><text x="770" y="250" text-anchor="middle" font-family="DejaVu Sans Mono" font-size="24">QR · SPECIMEN</text>',
    }),
  });

  await passport(
    'gb-passport.jpg',
    'GB',
    people.gb,
    ['#e4c1f9', '#a9def9'],
    '#5a189a',
    'UNITED KINGDOM OF SPECIMEN',
    'GB passport data page with MRZ, clean (flow global-passport)',
  );
  await passport(
    'us-passport-expired.jpg',
    'US',
    people.us,
    ['#a9def9', '#ffd6a5'],
    '#1d3557',
    'UNITED STATES OF SPECIMEN',
    'US passport that expired in 2021, no person marker: the expiry is read from its MRZ (isDocumentExpired true)',
    { markPerson: false },
  );
  // MRZ scenarios read from the pixels (no marker).
  await passport(
    'document-bad-mrz.jpg',
    'GB',
    people.gb,
    ['#e4c1f9', '#a9def9'],
    '#5a189a',
    'UNITED KINGDOM OF SPECIMEN',
    'GB passport whose MRZ document-number check digit is wrong: badMrz from the pixels',
    {
      markPerson: false,
      expected: 'documentPhoto.badMrz',
      mrz: ([line1, line2]) => [
        line1,
        `${line2.slice(0, 9)}${(Number(line2[9]) + 1) % 10}${line2.slice(10)}`,
      ],
    },
  );
  await passport(
    'document-country-mismatch.jpg',
    'GB',
    people.gb,
    ['#e4c1f9', '#a9def9'],
    '#5a189a',
    'UNITED KINGDOM OF SPECIMEN',
    'GB passport (MRZ P<GBR) claimed as Argentine: countryMismatch from the pixels',
    { markPerson: false, claimedCountry: 'AR', expected: 'documentPhoto.countryMismatch' },
  );
  await passport(
    'ar-passport.jpg',
    'AR',
    { ...ar, documentNumber: 'AAA123456', expiryDate: '2033-08-01' },
    ['#bde0fe', '#ffc8dd'],
    '#3a86ff',
    'REPÚBLICA ARGENTINA',
    'Argentine passport data page with MRZ, clean',
  );

  const residency = people.gbResidency;
  await writeDocument({
    file: 'gb-proof-of-residency.jpg',
    docType: 'proof-of-residency',
    country: 'GB',
    page: 'front',
    person: residency,
    note: 'GB utility bill as proof of residency; no expiry date (isDocumentExpired null)',
    svg: cardSvg({
      colours: ['#fefae0', '#e9edc9'],
      accent: '#bc6c25',
      title: 'SPECIMEN ENERGY LTD · BILL',
      subtitle: 'Proof of residency · SPECIMEN · not a real bill',
      photo: 'none',
      fields: [
        ['Customer', residency.fullName],
        ['Supply address', residency.address ?? ''],
        ['Bill date', dmy(residency.issueDate)],
        ['Amount due', '£ 84.20'],
      ],
    }),
  });
  return arFrontBytes;
}
