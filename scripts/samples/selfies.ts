// Selfie samples: drawn people before a wall, the code in a marker or read from the pixels.
import type { ErrorCode } from '@/shared/error-codes';
import { face, type FaceLook } from '../../e2e/fixtures/drawn-face';
import { jpeg, render } from './drawing';
import { jpegWithComments, markerTexts } from './markers';
import { add, save } from './output';

const SW = 720;
const SH = 960;
export const selfieSvg = (
  faces: FaceLook[] | 'none',
) => `<svg xmlns="http://www.w3.org/2000/svg" width="${SW}" height="${SH}">
  <defs><linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#a8dadc"/><stop offset="1" stop-color="#f1faee"/></linearGradient></defs>
  <rect width="${SW}" height="${SH}" fill="url(#wall)"/>
  <rect x="40" y="60" width="200" height="260" fill="#e9c46a" stroke="#264653" stroke-width="8"/>
  <rect x="520" y="100" width="150" height="420" fill="#f4a261" fill-opacity="0.6"/>
  ${faces === 'none' ? '<rect x="200" y="620" width="320" height="200" rx="20" fill="#8d99ae"/>' : faces.length === 1 ? face(SW / 2, 430, 190, faces[0]) : `${face(230, 450, 130, faces[0])}${face(500, 420, 120, { ...faces[1], skin: '#c68642', hair: '#1b1b1b' })}`}
  <text x="${SW / 2}" y="${SH - 40}" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="64" fill="#d7263d" fill-opacity="0.5">SPECIMEN</text>
</svg>`;

/** Another drawn person: the face match between this selfie and the default portrait fails. */
const otherPerson: FaceLook = {
  skin: '#5a3418',
  hair: '#111',
  iris: '#3b2a1a',
  width: 1,
  eyeSpacing: 0.4,
  mouthWidth: 0.4,
};
// [file, expected code, faces, marked: the code travels in a marker (else it is read from the pixels), note]
const selfieEntries: [string, ErrorCode | null, FaceLook[] | 'none', boolean, string][] = [
  ['selfie.jpg', null, [{}], false, 'one face, eyes open: clean; the same drawn face as the documents'],
  [
    'selfie-other-person.jpg',
    null,
    [otherPerson],
    false,
    'one face of another drawn person (face match fails)',
  ],
  ['selfie-mask-detected.jpg', 'selfiePhoto.maskDetected', [{ mask: true }], true, 'a face with a mask'],
  ['selfie-closed-eyes.jpg', 'selfiePhoto.closedEyes', [{ eyes: 'closed' }], false, 'eyes closed (pixels)'],
  ['selfie-no-face.jpg', 'selfiePhoto.noFace', 'none', false, 'nobody in the picture (pixels)'],
  ['selfie-multiple-faces.jpg', 'selfiePhoto.multipleFaces', [{}, {}], false, 'two faces (pixels)'],
  ['selfie-sun-glasses.jpg', 'selfiePhoto.sunGlasses', [{ sunglasses: true }], true, 'sunglasses'],
  [
    'selfie-validation-error.jpg',
    'selfiePhoto.validationError',
    [{}],
    true,
    'scenario marker: not taken properly',
  ],
];

export async function writeSelfies() {
  for (const [file, code, faces, marked, note] of selfieEntries) {
    save(
      file,
      jpegWithComments(
        await jpeg(selfieSvg(faces), 82),
        markerTexts(marked ? (code ?? undefined) : undefined),
      ),
    );
    add({ file, field: 'selfie', inputType: 'selfie-photo', expectedCode: code, note });
  }
  {
    const small = await render(selfieSvg([{}]))
      .resize({ width: 450, height: 600 })
      .jpeg({ quality: 82 })
      .toBuffer();
    save('selfie-small.jpg', small);
    add({
      file: 'selfie-small.jpg',
      field: 'selfie',
      inputType: 'selfie-photo',
      expectedCode: 'selfiePhoto.validationError',
      note: '450×600: under 600×600',
    });
  }
}
