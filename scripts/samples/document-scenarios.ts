// Document samples whose expected code is a scenario: measured from the bytes, carried by a marker
// (what a trained model would find), or read from the pixels alone.
import sharp, { type Sharp } from 'sharp';
import type { ErrorCode } from '@/shared/error-codes';
import { idCardMrz, passportMrz } from '../../e2e/fixtures/mrz-lines';
import { type DocumentSample, saveDocument, writeDocument } from './document-writer';
import { arBack, arBackSvg, arFront, badBarcode, mxFront } from './documents';
import { W, cardSvg, dmy, render } from './drawing';
import { mrzPerson } from './passports';
import { people } from './people';

const ar = people.ar;

// Scenarios a trained model would find: carried by the marker. A visual hint where it is cheap.
const thumb =
  '<ellipse cx="820" cy="420" rx="190" ry="120" fill="#d9a37e" transform="rotate(-30 820 420)"/><ellipse cx="700" cy="330" rx="60" ry="45" fill="#efc5a4" transform="rotate(-30 700 330)"/>';
const scanLines = Array.from(
  { length: 105 },
  (_, i) => `<rect x="0" y="${i * 6}" width="${W}" height="2" fill="#000" fill-opacity="0.12"/>`,
).join('');
const documentMarkerScenarios: [ErrorCode, DocumentSample, string, ((image: Sharp) => Sharp)?][] = [
  ['documentPhoto.badText', mxFront, 'a field fails validation'],
  ['documentPhoto.unexpectedData', arFront, 'document reading failed unexpectedly'],
  ['documentPhoto.noText', arFront, 'no text found'],
  [
    'documentPhoto.screenPhoto',
    { ...arFront, svg: arFront.svg.replace('</svg>', `${scanLines}</svg>`) },
    'photo of a screen (scan lines)',
  ],
  ['documentPhoto.noDocument', arFront, 'no known document template'],
  ['documentPhoto.missingFields', mxFront, 'required fields missing'],
  ['documentPhoto.wrongFormat', mxFront, 'fields in an invalid format'],
  [
    'documentPhoto.croppedDocument',
    arFront,
    'the card runs off the photo',
    (image) =>
      image
        .extract({ left: 250, top: 0, width: 750, height: 630 })
        .resize({ width: 1000, height: 630, fit: 'fill' }),
  ],
  ['documentPhoto.sideMismatch', { ...arFront, page: 'back' }, 'the front sent as the back'],
  [
    'documentPhoto.occludedDocument',
    { ...arFront, svg: arFront.svg.replace('</svg>', `${thumb}</svg>`) },
    'a thumb covers part of the card',
  ],
];

/** Writes the scenario samples; `arFrontBytes`: the clean AR front as written, sent again as the back. */
export async function writeDocumentScenarios(arFrontBytes: Buffer) {
  // Scenarios measured from the bytes.
  await writeDocument(
    { ...arFront, file: 'document-small.jpg', note: 'AR DNI front shrunk to 500×400: under 600×600' },
    'documentPhoto.smallImageSize',
    (image) => image.resize({ width: 500, height: 400, fit: 'fill' }),
  );
  await writeDocument(
    { ...mxFront, file: 'document-grayscale.jpg', note: 'MX INE front in grayscale' },
    'documentPhoto.grayscaleImage',
    (image) => image.greyscale(),
  );
  await writeDocument(
    { ...arFront, file: 'document-blurry.jpg', note: 'AR DNI front blurred (Gaussian σ 6)' },
    'documentPhoto.blurryText',
    (image) => image.blur(6),
  );
  await writeDocument(
    {
      ...arBack,
      file: 'ar-national-id-back-no-pdf417.jpg',
      svg: arBackSvg(false),
      composite: undefined,
      note: 'AR DNI back whose barcode area is empty',
    },
    'documentPhoto.noPdf417',
  );
  // The same front photographed again, sent as the back: re-encoded slightly smaller.
  {
    const again = await sharp(arFrontBytes)
      .resize({ width: 960 })
      .modulate({ brightness: 1.03 })
      .jpeg({ quality: 78 })
      .toBuffer();
    saveDocument(
      {
        ...arFront,
        file: 'ar-national-id-front-as-back.jpg',
        page: 'back',
        otherSideFile: 'ar-national-id-front.jpg',
        note: 'the front again (resized, brighter, re-encoded) sent as the back after ar-national-id-front.jpg',
      },
      'documentPhoto.similarImages',
      again,
      null,
    );
  }

  for (const [code, base, note, transform] of documentMarkerScenarios) {
    const name = code.split('.')[1].replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    await writeDocument(
      { ...base, file: `document-${name}.jpg`, note: `scenario marker: ${note}` },
      code,
      transform,
    );
  }

  // Scenarios read from the pixels alone (no marker at all).
  await writeDocument(
    {
      ...arFront,
      file: 'document-no-mrz.jpg',
      docType: 'passport',
      requires: ['mrz'],
      markPerson: false,
      note: 'an AR DNI front (no MRZ) sent as a passport: noMrz from the pixels',
    },
    'documentPhoto.noMrz',
    undefined,
    false,
  );
  await writeDocument(
    {
      ...arBack,
      file: 'document-bad-pdf417.jpg',
      composite: [{ input: badBarcode, left: 390, top: 340 }],
      markPerson: false,
      note: 'AR DNI back whose PDF417 reads but holds no DNI record (number garbled): badPdf417 from the pixels',
    },
    'documentPhoto.badPdf417',
    undefined,
    false,
  );
  await writeDocument(
    {
      ...arFront,
      file: 'document-type-mismatch.jpg',
      docType: 'passport',
      requires: ['mrz'],
      markPerson: false,
      readPerson: mrzPerson({ ...ar, documentNumber: '30123456' }),
      note: 'an AR identity card with a TD1 MRZ (I<ARG) claimed as a passport: typeMismatch from the pixels',
      svg: cardSvg({
        colours: ['#b9e3f7', '#f6e7c1'],
        accent: '#1d6fa5',
        title: 'REPÚBLICA ARGENTINA',
        subtitle: 'DOCUMENTO NACIONAL DE IDENTIDAD · SPECIMEN',
        fields: [
          ['Apellido / Surname', ar.lastName],
          ['Nombre / Name', ar.firstName],
          ['Documento / Document', '30.123.456'],
        ],
        mrz: idCardMrz('ARG', ar),
      }),
    },
    'documentPhoto.typeMismatch',
    undefined,
    false,
  );
  // A front with no portrait is no identity document at all (noDocument): the portrait is missed on
  // a passport page whose zone still shows it is one.
  await writeDocument(
    {
      file: 'document-no-face.jpg',
      docType: 'passport',
      country: 'GB',
      page: 'front',
      person: people.gb,
      requires: ['mrz'],
      markPerson: false,
      readPerson: mrzPerson(people.gb),
      note: 'a GB passport page whose portrait is empty, its zone clean: noFace from the pixels (where the flow compares faces)',
      svg: cardSvg({
        colours: ['#e4c1f9', '#a9def9'],
        accent: '#5a189a',
        title: 'UNITED KINGDOM OF SPECIMEN',
        subtitle: 'PASSPORT · PASAPORTE · SPECIMEN',
        fields: [
          ['Surname', people.gb.lastName ?? ''],
          ['Given names', people.gb.firstName ?? ''],
          ['Date of birth', dmy(people.gb.dateOfBirth)],
          ['Passport No.', people.gb.documentNumber ?? ''],
        ],
        mrz: passportMrz(people.gb.nationality ?? '', people.gb),
      }).replace(/<svg x="50" y="160"[^]*?<\/svg>/, ''),
    },
    'documentPhoto.noFace',
    undefined,
    false,
  );

  // A PNG document, to exercise PNG text chunks.
  {
    const png = await render(mxFront.svg)
      .png({ compressionLevel: 9, palette: true, colours: 128 })
      .toBuffer();
    saveDocument(
      { ...mxFront, file: 'mx-ine-front.png', note: 'the INE front as a PNG (marker in tEXt chunks)' },
      null,
      png,
    );
    const occluded = await render(mxFront.svg.replace('</svg>', `${thumb}</svg>`))
      .png({ palette: true, colours: 128 })
      .toBuffer();
    saveDocument(
      {
        ...mxFront,
        file: 'document-occluded-document.png',
        note: 'scenario marker in a PNG tEXt chunk: a thumb covers part of the card',
      },
      'documentPhoto.occludedDocument',
      occluded,
    );
  }
}
