// The drawn identity card every document sample starts from (SVG rendered by sharp), and the dates
// as the cards print them.
import sharp, { type Sharp } from 'sharp';
import { face } from '../../e2e/fixtures/drawn-face';

export const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const W = 1000;
const H = 630;

interface CardSpec {
  colours: [string, string];
  accent: string;
  title: string;
  subtitle: string;
  fields: [string, string][];
  photo?: 'left' | 'none';
  mrz?: string[];
  /** Extra SVG drawn over the card (a barcode frame, a thumb, scan lines…). */
  overlay?: string;
  pattern?: 'waves' | 'grid';
}

export function cardSvg(spec: CardSpec) {
  const photoX = 50;
  const fieldsX = spec.photo === 'none' ? 60 : 330;
  const fields = spec.fields
    .map(
      ([label, value], i) =>
        `<text x="${fieldsX}" y="${190 + i * 58}" font-family="DejaVu Sans" font-size="17" fill="#4a4a4a">${esc(label)}</text>
         <text x="${fieldsX}" y="${214 + i * 58}" font-family="DejaVu Sans" font-weight="bold" font-size="25" fill="#111">${esc(value)}</text>`,
    )
    .join('');
  const mrz = (spec.mrz ?? [])
    .map(
      (line, i) =>
        `<text x="40" y="${H - 30 - ((spec.mrz?.length ?? 0) - 1 - i) * 40}" font-family="DejaVu Sans Mono" font-size="30" fill="#111">${esc(line)}</text>`,
    )
    .join('');
  const pattern =
    spec.pattern === 'grid'
      ? Array.from(
          { length: 20 },
          (_, i) =>
            `<line x1="${i * 55}" y1="0" x2="${i * 55 - 300}" y2="${H}" stroke="${spec.accent}" stroke-opacity="0.18" stroke-width="3"/>`,
        ).join('')
      : Array.from(
          { length: 12 },
          (_, i) =>
            `<path d="M 0 ${60 + i * 50} Q 250 ${20 + i * 50} 500 ${60 + i * 50} T 1000 ${60 + i * 50}" stroke="${spec.accent}" stroke-opacity="0.22" stroke-width="3" fill="none"/>`,
        ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${spec.colours[0]}"/><stop offset="1" stop-color="${spec.colours[1]}"/></linearGradient></defs>
  <rect width="${W}" height="${H}" fill="#2b2d42"/>
  <rect x="12" y="12" width="${W - 24}" height="${H - 24}" rx="34" fill="url(#bg)"/>
  ${pattern}
  <rect x="12" y="12" width="${W - 24}" height="110" rx="34" fill="${spec.accent}"/>
  <rect x="12" y="90" width="${W - 24}" height="32" fill="${spec.accent}"/>
  <text x="40" y="66" font-family="DejaVu Sans" font-weight="bold" font-size="34" fill="#fff">${esc(spec.title)}</text>
  <text x="40" y="104" font-family="DejaVu Sans" font-size="22" fill="#fff">${esc(spec.subtitle)}</text>
  ${spec.photo === 'none' ? '' : `<rect x="${photoX}" y="160" width="240" height="300" rx="12" fill="#dfe7ef" stroke="#fff" stroke-width="4"/><svg x="${photoX}" y="160" width="240" height="300">${face(120, 130, 80)}</svg>`}
  ${fields}
  ${mrz}
  <text x="${W / 2}" y="${H / 2 + 60}" transform="rotate(-18 ${W / 2} ${H / 2})" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" font-size="120" fill="#d7263d" fill-opacity="0.35" stroke="#fff" stroke-opacity="0.4" stroke-width="2">SPECIMEN</text>
  ${spec.overlay ?? ''}
</svg>`;
}

export const render = (svg: string) => sharp(Buffer.from(svg));
export const jpeg = async (svgOrImage: string | Sharp, quality = 85) =>
  (typeof svgOrImage === 'string' ? render(svgOrImage) : svgOrImage).jpeg({ quality }).toBuffer();

export const dmy = (iso?: string) =>
  iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '—';
