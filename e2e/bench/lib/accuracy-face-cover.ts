// The accuracy report's section on masks and sunglasses: every `face` entry expected `ok`, `mask`
// or `sunglasses` through the selfie check a send-input runs (checkSelfiePhoto), and what the cover
// rule (src/checks/face/face-cover.ts) read of it. A photo under the spec's 600 px would be refused
// by size before any face rule: it is enlarged (short side 600, Lanczos) into a temporary file for
// the check, and counted apart. Clear eyeglasses are the `ok` entries in an `eyeglasses/` folder.
// The CPU the rule adds is its measure alone (in this process, models loaded), per selfie.
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { measureFaceCover, type FaceCover } from '@/checks/face/face-cover';
import { decodeForFaces, detectFacesInPixels } from '@/checks/face/node/faces';
import { checkSelfiePhoto } from '@/service/checks/inputs/selfie-photo';
import { MIN_IMAGE_SIDE } from '@/shared/limits';
import { asSent } from './as-sent';
import type { AccuracySection, EvalEntry, EvalSet } from './eval-set';
import { percentile } from './percentile';

type Group = 'ok' | 'eyeglasses' | 'mask' | 'sunglasses';

const groupOf = (entry: EvalEntry): Group | undefined => {
  if (entry.kind !== 'face') return undefined;
  if (entry.expect === 'mask' || entry.expect === 'sunglasses') return entry.expect;
  if (entry.expect !== 'ok') return undefined;
  return /(^|\/)eyeglasses\//.test(entry.file) ? 'eyeglasses' : 'ok';
};

interface Result {
  entry: EvalEntry;
  group: Group;
  /** The send-input's code without its family (null: accepted). */
  code: string | null;
  enlarged: boolean;
  cover?: FaceCover;
}

async function check(entry: EvalEntry, group: Group, dir: string): Promise<Result> {
  const { file, enlarged } = await asSent(entry, dir);
  const { code, facts } = await checkSelfiePhoto({
    path: file,
    filename: path.basename(file),
    size: statSync(file).size,
    format: file.toLowerCase().endsWith('.png') ? 'png' : 'jpeg',
  });
  return {
    entry,
    group,
    code: code?.replace(/^selfiePhoto\./, '') ?? null,
    enlarged,
    ...(facts.faceCover ? { cover: facts.faceCover } : {}),
  };
}

/** CPU of the cover measure alone on one photo's largest face (models loaded, mean of 10 runs). */
async function coverCpuMs(file: string) {
  const { data, info } = await decodeForFaces(file);
  const pixels = { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 as const };
  const reading = await detectFacesInPixels({ ...pixels, data: new Uint8Array(data) }, 'selfie');
  const mesh = reading.faces[0]?.mesh;
  if (!mesh) return undefined;
  const start = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < 10; i++) measureFaceCover(pixels, mesh);
  const used = process.cpuUsage(start);
  return { cpu: (used.user + used.system) / 1000 / 10, wall: (performance.now() - wall) / 10 };
}

const pct = (n: number, d: number) => `${d ? ((n / d) * 100).toFixed(1) : '–'} %`;
const codes = (rs: Result[]) => {
  const counts = new Map<string, number>();
  for (const r of rs) counts.set(r.code ?? 'accepted', (counts.get(r.code ?? 'accepted') ?? 0) + 1);
  return [...counts].map(([c, n]) => `${c} ${n}`).join(', ');
};
const measures = (c?: FaceCover) =>
  c
    ? `mask ${c.maskScore}, lens skin ${c.lensSkinShare}, light ${c.lensLuminance}, colour ${c.lensChroma}`
    : 'not measured';

export async function faceCoverSection(set: EvalSet): Promise<AccuracySection> {
  const dir = await mkdtemp(path.join(tmpdir(), 'accuracy-face-cover-'));
  const results: Result[] = [];
  const cpu: number[] = [];
  try {
    for (const entry of set.entries) {
      const group = groupOf(entry);
      if (!group) continue;
      const result = await check(entry, group, dir);
      results.push(result);
      if (result.group === 'ok' && cpu.length < 20 && !result.enlarged) {
        const cost = await coverCpuMs(entry.path);
        if (cost) cpu.push(cost.cpu);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const by = (group: Group) => results.filter((r) => r.group === group);
  const coverCode = (r: Result) => r.code === 'maskDetected' || r.code === 'sunGlasses';
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  for (const [group, wanted] of [
    ['mask', 'maskDetected'],
    ['sunglasses', 'sunGlasses'],
  ] as const) {
    const rs = by(group);
    const caught = rs.filter((r) => r.code === wanted);
    const small = rs.filter((r) => r.enlarged);
    lines.push(
      `${group} caught (${wanted}): ${caught.length}/${rs.length} (${pct(caught.length, rs.length)}); of those enlarged from under ${MIN_IMAGE_SIDE} px ${small.filter((r) => r.code === wanted).length}/${small.length} — ${codes(rs)}`,
      ...rs
        .filter((r) => r.code !== wanted)
        .map(
          (r) =>
            `  missed ${r.entry.file}${r.enlarged ? ' (enlarged)' : ''}: ${r.code ?? 'accepted'} (${measures(r.cover)})`,
        ),
    );
    figures[group] = {
      caught: caught.length,
      of: rs.length,
      enlarged: small.length,
      enlargedCaught: small.filter((r) => r.code === wanted).length,
      codes: Object.fromEntries(
        codes(rs)
          .split(', ')
          .map((p) => [p.slice(0, p.lastIndexOf(' ')), Number(p.slice(p.lastIndexOf(' ') + 1))]),
      ),
      missed: rs.filter((r) => r.code !== wanted).map((r) => r.entry.file),
    };
  }
  for (const group of ['ok', 'eyeglasses'] as const) {
    const rs = by(group);
    const refused = rs.filter(coverCode);
    lines.push(
      `${group === 'ok' ? 'good selfies' : 'clear eyeglasses'} refused as a mask or sunglasses: ${refused.length}/${rs.length} (${pct(refused.length, rs.length)}; enlarged ${rs.filter((r) => r.enlarged).length}) — ${codes(rs)}`,
      ...refused.map(
        (r) =>
          `  refused ${r.entry.file}${r.enlarged ? ' (enlarged)' : ''}: ${r.code} (${measures(r.cover)})`,
      ),
    );
    figures[group] = { refused: refused.length, of: rs.length, files: refused.map((r) => r.entry.file) };
  }
  const spreadOf = (group: Group, key: keyof FaceCover) => {
    const values = by(group)
      .map((r) => r.cover?.[key])
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    return values.length
      ? `${values[0]}–${values[values.length - 1]} (median ${values[Math.floor(values.length / 2)]})`
      : '–';
  };
  for (const key of ['maskScore', 'lensSkinShare', 'lensLuminance', 'lensChroma'] as const)
    lines.push(
      `${key}: ${(['ok', 'eyeglasses', 'mask', 'sunglasses'] as const).map((g) => `${g} ${spreadOf(g, key)}`).join('; ')}`,
    );
  lines.push(
    `CPU the cover rule adds per selfie (its measure alone, ${cpu.length} good selfies): p50 ${percentile(cpu, 50).toFixed(2)} ms, max ${Math.max(0, ...cpu).toFixed(2)} ms`,
  );
  figures.coverCpuMs = {
    p50: Math.round(percentile(cpu, 50) * 100) / 100,
    max: Math.round(Math.max(0, ...cpu) * 100) / 100,
  };
  return { name: 'masks and sunglasses', lines, figures };
}
