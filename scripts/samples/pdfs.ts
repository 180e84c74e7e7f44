// PDFs drawn by pdf-lib with fixed dates and metadata, so a run reproduces the committed files.
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

const fixedDate = new Date('2026-11-01T10:00:00Z');

export async function pdfWithLines(
  pages: string[][],
  info: { title: string; producer: string; keywords?: string[]; subject?: string },
) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    page.drawText('SPECIMEN', {
      x: 120,
      y: 380,
      size: 90,
      font: bold,
      color: rgb(0.85, 0.15, 0.24),
      opacity: 0.18,
      rotate: { type: 'degrees', angle: 35 } as never,
    });
    lines.forEach((line, i) => {
      page.drawText(line, {
        x: 50,
        y: 790 - i * 20,
        size: i === 0 ? 14 : 11,
        font: i === 0 ? bold : font,
        color: rgb(0.1, 0.1, 0.15),
      });
    });
  }
  doc.setTitle(info.title);
  doc.setAuthor('IDV Capture sample generator');
  doc.setProducer(info.producer);
  doc.setCreator('IDV Capture samples');
  doc.setCreationDate(fixedDate);
  doc.setModificationDate(fixedDate);
  if (info.keywords) doc.setKeywords(info.keywords);
  if (info.subject) doc.setSubject(info.subject);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
