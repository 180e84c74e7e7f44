import { describe, expect, it } from 'vitest';
import { DOCUMENT_LAYOUTS, layoutsFor, type Box } from './field-layouts';

const inside = (box: Box) =>
  box.x >= 0 && box.y >= 0 && box.w > 0 && box.h > 0 && box.x + box.w <= 1.001 && box.y + box.h <= 1.001;

describe('document layouts', () => {
  it('keeps every box inside its document', () => {
    for (const layout of DOCUMENT_LAYOUTS) {
      const boxes = [layout.headerBox, layout.portrait, layout.zone, layout.barcode, layout.fieldsArea];
      for (const box of [...boxes, ...layout.fields.map((f) => f.box)]) {
        if (box) expect(inside(box), `${layout.id} ${JSON.stringify(box)}`).toBe(true);
      }
    }
  });

  it("describes the fronts of every type the flows accept, a country's own revision first", () => {
    expect(layoutsFor('passport', 'AR', 'front').map((l) => l.id)).toEqual([
      'passport/AR/sample',
      'passport/icao/td3',
    ]);
    expect(layoutsFor('passport', 'CO', 'front').map((l) => l.id)).toEqual(['passport/icao/td3']);
    for (const [type, country] of [
      ['national-id', 'AR'],
      ['national-id', 'MX'],
      ['national-id', 'BR'],
      ['driving-license', 'BR'],
    ] as const) {
      expect(layoutsFor(type, country, 'front')).toHaveLength(1);
    }
  });

  it('gives pattern fields a pattern and boxed fields rows that do not overlap', () => {
    for (const layout of DOCUMENT_LAYOUTS) {
      for (const field of layout.fields) if (field.format === 'pattern') expect(field.pattern).toBeDefined();
      if (layout.located !== 'box') continue;
      const tops = layout.fields.map((f) => f.box.y).sort((a, b) => a - b);
      for (let i = 1; i < tops.length; i++) expect(tops[i]! - tops[i - 1]!).toBeGreaterThan(0.05);
    }
  });
});
