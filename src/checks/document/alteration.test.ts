import { describe, expect, it } from 'vitest';
import {
  ALTERATION_TILE,
  editorNamed,
  judgeAlteration,
  portraitRegion,
  type AlterationMap,
} from './alteration';

/** A map of `cols`×`rows` tiles of grain `rest`, a block of tiles of grain `inside` at its left. */
function map(rest: number, inside: number, options: Partial<AlterationMap> = {}): AlterationMap {
  const cols = 20;
  const rows = 12;
  const noise = new Float32Array(cols * rows).fill(rest);
  for (let r = 3; r < 9; r++) for (let c = 2; c < 6; c++) noise[r * cols + c] = inside;
  return {
    width: cols * ALTERATION_TILE,
    height: rows * ALTERATION_TILE,
    orientation: 1,
    cols,
    rows,
    noise,
    ...options,
  };
}
const portrait = [{ name: 'portrait', box: { x: 0.1, y: 0.25, w: 0.2, h: 0.5 } }];

describe('editorNamed', () => {
  it('names an editor in a Software or CreatorTool value, not in the vocabulary every XMP or IPTC writer uses', () => {
    expect(editorNamed('Exif\0\0MM Adobe Photoshop CS4 Windows')).toBe('Photoshop');
    expect(editorNamed('<xmp:CreatorTool>GIMP 2.10</xmp:CreatorTool>')).toBe('GIMP');
    expect(editorNamed('Paint.NET v3.36')).toBe('Paint.NET');
    expect(
      editorNamed(
        "Photoshop 3.0\0 xmlns:photoshop='http://ns.adobe.com/photoshop/1.0/' photoshop:DateCreated <xmp:CreatorTool>17.1</xmp:CreatorTool>",
      ),
    ).toBeUndefined();
    expect(editorNamed('Software: G998BXXU5CVDD')).toBeUndefined();
  });
});

describe('judgeAlteration', () => {
  it('a portrait as grainy as the rest passes; one much cleaner is a pasted one', () => {
    expect(judgeAlteration(map(4, 3.5), portrait)).toEqual({ checked: ['file', 'portrait'], findings: [] });
    expect(judgeAlteration(map(4, 0.2), portrait).findings).toEqual([
      {
        region: 'portrait',
        kind: 'noise',
        detail: "its noise (0.2) is unlike the rest of the document's (4.0)",
      },
    ]);
  });

  it("a grainier portrait is no finding (a portrait's detail leaves no flat block)", () => {
    expect(judgeAlteration(map(2, 12), portrait).findings).toEqual([]);
  });

  it('a pattern, not grain, around it: the portrait is not compared', () => {
    expect(judgeAlteration(map(120, 0), portrait)).toEqual({ checked: ['file'], findings: [] });
  });

  it('the editor the metadata names is a finding on the file', () => {
    expect(judgeAlteration(map(4, 4, { editor: 'Photoshop' }), portrait).findings).toEqual([
      { region: 'file', kind: 'editor', detail: "the file's metadata names an image editor (Photoshop)" },
    ]);
  });

  it('boxes are read in the shown photo: a photo stored turned (EXIF 6) is turned back', () => {
    // Stored 20×12 tiles shown turned a quarter clockwise: the stored block at the left is at the top.
    const turned = map(4, 0.2, { orientation: 6 });
    expect(
      judgeAlteration(turned, [{ name: 'portrait', box: { x: 0.25, y: 0.1, w: 0.5, h: 0.2 } }]).findings,
    ).toHaveLength(1);
    expect(judgeAlteration(turned, portrait).findings).toEqual([]);
  });

  it('the printed portrait is larger than the face the detector boxes', () => {
    const region = portraitRegion({ x: 0.1, y: 0.2, w: 0.1, h: 0.2 });
    expect(Object.values(region).map((v) => +v.toFixed(6))).toEqual([0.075, 0.14, 0.15, 0.34]);
  });
});
