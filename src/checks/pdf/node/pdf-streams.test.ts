import { brotliCompressSync, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodesTooMuch } from './pdf-streams';

const MB = 1024 * 1024;
const limits = { stream: 4 * MB, total: 8 * MB };
const zeros = (n: number) => Buffer.alloc(n);

/** A PDF-shaped file with one object per body: `dict` and the raw stream data. */
function pdfWith(...objects: { dict: string; data: Buffer | string; eol?: string }[]) {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  objects.forEach(({ dict, data, eol = '\n' }, i) => {
    parts.push(Buffer.from(`${i + 1} 0 obj\n<< ${dict} >>\nstream${eol}`, 'latin1'));
    parts.push(Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1'));
    parts.push(Buffer.from('\nendstream\nendobj\n'));
  });
  return Buffer.concat(parts);
}

const ascii85 = (bytes: Buffer) => {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    const group = Buffer.alloc(4);
    bytes.copy(group, 0, i, i + 4);
    let value = group.readUInt32BE(0);
    const n = Math.min(4, bytes.length - i);
    if (value === 0 && n === 4) {
      out += 'z';
      continue;
    }
    const digits: string[] = [];
    for (let d = 0; d < 5; d++) {
      digits.unshift(String.fromCharCode(33 + (value % 85)));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, n + 1).join('');
  }
  return `${out}~>`;
};

/** A plain LZW encoder (PDF's variant, early change 1), enough to make a bomb. */
function lzwEncode(input: Buffer) {
  const dict = new Map<string, number>();
  let next = 258;
  let codeLength = 9;
  const bits: number[] = [];
  const put = (code: number) => {
    for (let b = codeLength - 1; b >= 0; b--) bits.push((code >> b) & 1);
  };
  put(256);
  let w = '';
  for (const byte of input) {
    const c = String.fromCharCode(byte);
    if (dict.has(w + c) || (w + c).length === 1) {
      w += c;
      continue;
    }
    put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
    if (next < 4096) dict.set(w + c, next++);
    // The decoder adds each entry one code later, so with early change it widens at this point.
    if (next >= 1 << codeLength && codeLength < 12) codeLength++;
    if (next === 4096) {
      put(256);
      dict.clear();
      [next, codeLength] = [258, 9];
    }
    w = c;
  }
  if (w) put(w.length === 1 ? w.charCodeAt(0) : dict.get(w)!);
  put(257);
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => (out[i >> 3] |= bit << (7 - (i & 7))));
  return out;
}

describe('decodesTooMuch: every stream measured whatever its line ending and filter chain', () => {
  const bomb = deflateSync(zeros(6 * MB), { level: 9 });

  it('measures a flate stream after LF, CRLF, a lone CR, and junk before the end of line', async () => {
    for (const eol of ['\n', '\r\n', '\r', '  \r', ' junk\n']) {
      expect(await decodesTooMuch(pdfWith({ dict: '/Filter /FlateDecode', data: bomb, eol }), limits)).toBe(
        true,
      );
    }
    const small = deflateSync(zeros(MB));
    expect(
      await decodesTooMuch(pdfWith({ dict: '/Filter /FlateDecode', data: small, eol: '\r' }), limits),
    ).toBe(false);
  });

  it('follows filter chains: ASCIIHex, ASCII85, RunLength, Brotli before or after Flate', async () => {
    const hex = bomb.toString('hex') + '>';
    expect(
      await decodesTooMuch(pdfWith({ dict: '/Filter [/ASCIIHexDecode /FlateDecode]', data: hex }), limits),
    ).toBe(true);
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter [/AHx /Fl]', data: hex, eol: '\r' }), limits)).toBe(
      true,
    );
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter [/A85 /Fl]', data: ascii85(bomb) }), limits)).toBe(
      true,
    );
    // Flate inside Flate.
    expect(
      await decodesTooMuch(pdfWith({ dict: '/Filter [/Fl /Fl]', data: deflateSync(bomb) }), limits),
    ).toBe(true);
    // RunLength alone: 2 bytes become 128.
    const rl = Buffer.alloc(2 * 40_000);
    for (let i = 0; i < rl.length; i += 2) rl[i] = 129;
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter /RunLengthDecode', data: rl }), limits)).toBe(true);
    const br = brotliCompressSync(zeros(6 * MB));
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter /BrotliDecode', data: br }), limits)).toBe(true);
  });

  it('decodes LZW (the spec example) and measures an LZW bomb', async () => {
    const example = Buffer.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    const tight = { stream: 9, total: 9 };
    // "-----A---B" is 10 bytes.
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter /LZWDecode', data: example }), tight)).toBe(true);
    expect(
      await decodesTooMuch(pdfWith({ dict: '/Filter /LZWDecode', data: example }), { stream: 10, total: 10 }),
    ).toBe(false);
    const lzwBomb = lzwEncode(zeros(MB));
    expect(lzwBomb.length).toBeLessThan(4096);
    const data = pdfWith({ dict: '/Filter /LZW', data: lzwBomb });
    expect(await decodesTooMuch(data, { stream: MB / 2, total: MB })).toBe(true);
    expect(await decodesTooMuch(data, { stream: MB, total: MB })).toBe(false);
  });

  it('reads escaped names, indirect filters and lengths, and guesses an unreadable chain', async () => {
    expect(await decodesTooMuch(pdfWith({ dict: '/Filter /Fl#61teDecode', data: bomb }), limits)).toBe(true);
    const indirect = Buffer.concat([
      pdfWith({ dict: '/Filter 9 0 R /Length 8 0 R', data: bomb.toString('hex') }),
      Buffer.from('9 0 obj\n[/AHx /Fl]\nendobj\n8 0 obj\n999999\nendobj\n'),
    ]);
    expect(await decodesTooMuch(indirect, limits)).toBe(true);
    // The filter points nowhere (an object stream, say): hex then zlib are recognised from the bytes.
    expect(
      await decodesTooMuch(pdfWith({ dict: '/Filter 77 0 R', data: bomb.toString('hex') }), limits),
    ).toBe(true);
  });

  it('counts past a fake endstream when /Length says the data goes on', async () => {
    // The hex text stands for the bomb whichever end pdf.js takes; the measure must not stop early.
    // RunLength: a literal run holding "endstream", then 6 MB of repeats.
    const repeats = Buffer.alloc(2 * 50_000);
    for (let i = 0; i < repeats.length; i += 2) repeats[i] = 129;
    const data = Buffer.concat([
      Buffer.from([10]),
      Buffer.from('\nendstream\n'),
      repeats,
      Buffer.from([128]),
    ]);
    const tricky = pdfWith({ dict: `/Filter /RL /Length ${data.length}`, data });
    expect(await decodesTooMuch(tricky, limits)).toBe(true);
    const noLength = pdfWith({ dict: '/Filter /RL', data });
    expect(await decodesTooMuch(noLength, limits)).toBe(false);
  });

  it('adds the streams of a file up to the total bound', async () => {
    const three = deflateSync(zeros(3 * MB));
    const one = pdfWith({ dict: '/Filter /FlateDecode', data: three });
    expect(await decodesTooMuch(one, limits)).toBe(false);
    const many = pdfWith(...[1, 2, 3].map(() => ({ dict: '/Filter /FlateDecode', data: three })));
    expect(await decodesTooMuch(many, limits)).toBe(true);
  });
});
