// Template matching and alteration detection (issue 39) on the real specimens of a folder laid out
// like ../shared/eval, as the service runs them on a document front (checkDocumentPhoto, no
// HTTP): every genuine specimen of a type the flows accept (passports, ID cards) must match a
// known revision and never be flagged as altered. Then altered copies made here from each
// specimen whose portrait is found, named as made: its portrait swapped for a face of the folder,
// a field beside the portrait repainted, the file re-saved naming an editor; each must be caught.
// Specimens under the spec's 600×600 are enlarged to 600 on their short side (lossless PNG) and
// counted apart. Visas are no type of the flows: left out. Time is alterationMap's own (the
// full-size noise map and metadata, in this process), the CPU the checks add to a send-input.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { portraitRegion, type ShareBox } from '@/checks/document/alteration';
import { alterationMap } from '@/checks/document/node/alteration-map';
import type { DocumentCheckOutcomes } from '@/checks/inputs/node/document-check-outcome';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import type { DocumentType } from '@/shared/flow';
import { checkDocumentPhoto } from '@/service/checks/inputs/document-photo';
import { documentPortrait } from '@/service/checks/face-checks';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { median, percentile } from './percentile';

/** ICAO state codes of the specimens' names, as ISO alpha-2 (an unknown one claims `XX`: ICAO's layouts). */
const countries: Record<string, string> = {
  esp: 'ES', lva: 'LV', che: 'CH', mac: 'MO', rou: 'RO', si: 'SI', usa: 'US', bdr: 'DE', d: 'DE',
  chn: 'CN', cze: 'CZ', cze2: 'CZ', fin: 'FI', hrv: 'HR', isl: 'IS', ltu: 'LT', lux: 'LU', pol: 'PL',
  polx: 'PL', egy: 'EG', gbr: 'GB', fra: 'FR', twn: 'TW', aus: 'AU', can: 'CA', hun: 'HU', nld: 'NL',
  cmw: 'CM',
}; // prettier-ignore

/** The type and country a specimen is claimed as, from its name; null for a type no flow takes. */
function claimOf(entry: EvalEntry): { type: DocumentType; country: string } | null {
  const name = path.basename(entry.file);
  if (/passport-td3/.test(name)) return { type: 'passport', country: 'XX' };
  if (/passport-td2/.test(name)) return { type: 'national-id', country: 'XX' };
  const m = /_(pass2?|id|card|visa)-([a-z0-9]+)\./.exec(name);
  if (!m || m[1] === 'visa') return null;
  return { type: m[1]!.startsWith('pass') ? 'passport' : 'national-id', country: countries[m[2]!] ?? 'XX' };
}

type Outcomes = DocumentCheckOutcomes;

const templateWord = (o: Outcomes) => {
  const t = o['template-matching'];
  if (!t) return 'absent';
  if (!t.performed) return 'not performed';
  return t.passed ? `match ${t.data.revision?.id}` : t.code;
};
const alterationFindings = (o: Outcomes) => {
  const a = o['alteration-detection'];
  if (!a?.performed) return null;
  return a.data.findings.map((f) => `${f.region}:${f.kind}`);
};

export async function documentChecksSection(set: EvalSet): Promise<AccuracySection> {
  const lines: string[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'doc-checks-'));
  const faces = set.entries.filter((e) => e.kind === 'face-crop' || (e.kind === 'face' && e.expect === 'ok'));
  const genuine = {
    specimens: 0,
    enlarged: 0,
    refused: 0,
    templateMatched: 0,
    unknownTemplate: 0,
    notPerformed: 0,
    flagged: 0,
    flaggedByMetadata: 0,
    flaggedByPixels: 0,
  };
  const altered = {
    portrait: { made: 0, caught: 0 },
    field: { made: 0, caught: 0 },
    editor: { made: 0, caught: 0 },
  };
  const mapMs: number[] = [];
  const megapixels: number[] = [];
  try {
    let faceIndex = 0;
    for (const entry of set.entries) {
      if (entry.kind !== 'document' || !entry.file.startsWith('images/docs/')) continue;
      const claim = claimOf(entry);
      if (!claim) continue;
      genuine.specimens++;
      let file = entry.path;
      const meta = await sharp(file).metadata();
      const short = Math.min(meta.width ?? 0, meta.height ?? 0);
      if (short < MIN_IMAGE_SIDE) {
        genuine.enlarged++;
        file = path.join(dir, `${path.basename(entry.file)}.png`);
        const scale = MIN_IMAGE_SIDE / short;
        await sharp(entry.path)
          .resize(Math.ceil((meta.width ?? 0) * scale), Math.ceil((meta.height ?? 0) * scale))
          .png()
          .toFile(file);
      }
      const check = async (at: string) => {
        const bytes = readFileSync(at);
        return checkDocumentPhoto(
          {
            path: at,
            filename: path.basename(at),
            size: bytes.length,
            format: bytes[0] === 0x89 ? 'png' : 'jpeg',
          },
          { ...claim, page: 'front', requires: claim.type === 'passport' ? ['mrz'] : [] },
        );
      };
      const started = performance.now();
      await alterationMap(file);
      mapMs.push(performance.now() - started);
      const { width = 0, height = 0 } = await sharp(file).metadata();
      megapixels.push((width * height) / 1e6);
      const outcome = await check(file);
      const checks = outcome.facts.documentChecks ?? {};
      const name = path.basename(entry.file);
      if (outcome.code) {
        genuine.refused++;
        lines.push(`  ${name}: refused before the checks (${outcome.code})`);
        continue;
      }
      const template = templateWord(checks);
      if (template.startsWith('match')) genuine.templateMatched++;
      else if (template === 'not performed') genuine.notPerformed++;
      else genuine.unknownTemplate++;
      const findings = alterationFindings(checks) ?? [];
      if (findings.length) {
        genuine.flagged++;
        if (findings.some((f) => f.startsWith('file:'))) genuine.flaggedByMetadata++;
        if (findings.some((f) => !f.startsWith('file:'))) genuine.flaggedByPixels++;
      }
      lines.push(
        `  ${name} (${claim.type} ${claim.country}): ${template}; alteration ${findings.join(' ') || 'none'}`,
      );

      // Altered copies, where the portrait is found (the swap and the field need its place).
      const portrait = (await documentPortrait(file, {}).catch(() => ({ box: undefined }))).box;
      if (!portrait) continue;
      const px = (box: ShareBox) => {
        const left = Math.max(0, Math.round(box.x * width));
        const top = Math.max(0, Math.round(box.y * height));
        return {
          left,
          top,
          width: Math.max(1, Math.min(width - left, Math.round(box.w * width))),
          height: Math.max(1, Math.min(height - top, Math.round(box.h * height))),
        };
      };
      const region = px(portraitRegion(portrait));
      const face = faces[faceIndex++ % faces.length]!;
      const swappedFace = await sharp(face.path).resize(region.width, region.height).toBuffer();
      const field = px({
        x: portrait.x + portrait.w * 1.45,
        y: portrait.y + portrait.h * 0.4,
        w: portrait.w * 1.6,
        h: portrait.h * 0.4,
      });
      const paint = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${field.width}" height="${field.height}"><rect width="100%" height="100%" fill="#e8e4dc"/>` +
          `<text x="2" y="${field.height * 0.8}" font-family="DejaVu Sans" font-weight="bold" font-size="${field.height * 0.75}" fill="#222">X1234567</text></svg>`,
      );
      const copies = {
        portrait: await sharp(file).composite([{ input: swappedFace, left: region.left, top: region.top }]).jpeg({ quality: 90 }).toBuffer(),
        field: await sharp(file).composite([{ input: paint, left: field.left, top: field.top }]).jpeg({ quality: 90 }).toBuffer(),
        editor: await sharp(file).withExif({ IFD0: { Software: 'Adobe Photoshop 25.0 (Windows)' } }).jpeg({ quality: 90 }).toBuffer(),
      }; // prettier-ignore
      const caught: string[] = [];
      for (const [kind, bytes] of Object.entries(copies) as [keyof typeof altered, Buffer][]) {
        const at = path.join(dir, `${name}.${kind}.jpg`);
        await writeFile(at, bytes);
        const result = await check(at);
        const seen = alterationFindings(result.facts.documentChecks ?? {});
        if (seen === null) continue;
        altered[kind].made++;
        if (seen.length) {
          altered[kind].caught++;
          caught.push(`${kind} (${seen.join(' ')})`);
        }
      }
      lines.push(`    altered copies caught: ${caught.join(', ') || 'none'}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const ms = (v: number) => `${Math.round(v)} ms`;
  lines.unshift(
    `genuine specimens (passports, ID cards): ${genuine.specimens}, ${genuine.enlarged} enlarged to ${MIN_IMAGE_SIDE} px, ${genuine.refused} refused before the checks`,
    `  template matching: ${genuine.templateMatched} matched a revision, ${genuine.unknownTemplate} unknown or not valid, ${genuine.notPerformed} not performed (layout not seen)`,
    `  alteration detection: ${genuine.flagged} flagged (${genuine.flaggedByMetadata} by the editor the metadata names, ${genuine.flaggedByPixels} by the pixels)`,
    `altered copies caught (of those the input's own checks let through): portrait swapped ${altered.portrait.caught}/${altered.portrait.made}, field repainted ${altered.field.caught}/${altered.field.made}, re-saved naming an editor ${altered.editor.caught}/${altered.editor.made}`,
    `alterationMap: median ${ms(median(mapMs))}, p90 ${ms(percentile(mapMs, 90))} a photo (median ${median(megapixels).toFixed(2)} MP)`,
    'per specimen:',
  );
  return {
    name: 'document checks (template matching, alteration detection)',
    lines,
    figures: { genuine, altered, alterationMapMs: { median: median(mapMs), p90: percentile(mapMs, 90) } },
  };
}
