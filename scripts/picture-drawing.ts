// The drawing helpers of make-not-documents.ts: a seeded generator, prose, SVG text, and a
// rendered picture made to look photographed (camera noise, a slight blur).
import sharp from 'sharp';

/** A small seeded generator (mulberry32): the same pictures on every run. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = (
  'the of and to in is was for on that with as by at from his her it an were which are this be ' +
  'has had not but they one their new after first two also other city council river market ' +
  'report season garden weather project school station library morning evening policy budget ' +
  'local people would could about water summer winter museum street festival travel music'
).split(' ');

export function sentence(random: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(random() * WORDS.length)]!);
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lines of prose wrapped to about `chars` characters each. */
export function paragraph(random: () => number, lines: number, chars: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    let line = '';
    while (line.length < chars - 8) line += `${WORDS[Math.floor(random() * WORDS.length)]} `;
    out.push(i === 0 ? line.charAt(0).toUpperCase() + line.slice(1).trim() : line.trim());
  }
  out[out.length - 1] = `${out[out.length - 1]!.slice(0, Math.floor(chars * (0.3 + random() * 0.5)))}.`;
  return out;
}

export const text = (x: number, y: number, size: number, fill: string, body: string, extra = '') =>
  `<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" fill="${fill}" ${extra}>${body}</text>`;

/** Camera noise (and a slight blur, `soften`) over a rendered picture, as a phone photo has. */
export async function photographed(svg: string, seed: number, soften = true): Promise<Buffer> {
  const rendered = sharp(Buffer.from(svg));
  const { data, info } = await (soften ? rendered.blur(0.6) : rendered)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const random = seeded(seed);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.max(0, Math.min(255, data[i]! + (random() - 0.5) * 18));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();
