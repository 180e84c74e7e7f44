import { z } from 'zod';
import { flowSchema } from '../flow';

// Apart from bff-api.ts: the browser parses these on its first screen, and this file brings no
// more schemas than they need.

const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/**
 * GET /api/brand: the wizard's look and who stands behind it, from the BFF's settings: the brand is
 * the controller the consent names, and `retentionDays` (RETENTION_DAYS, 0: kept until erased)
 * how long the data is kept.
 */
export const brandSchema = z.object({
  name: z.string().min(1),
  /** BRAND_PRIMARY_COLOR as set (#rrggbb), for fills: buttons, the progress bar. */
  primaryColor: hexColor.nullable(),
  /** The text colour on `primaryColor` (dark or light, whichever reads at 4.5:1 or better). */
  onPrimaryColor: hexColor.nullable(),
  /** Text, links and outlines in the brand colour on white: 4.5:1 or better (darkened if needed). */
  primaryInkColor: hexColor.nullable(),
  font: z.string().nullable(),
  logoUrl: z.string().nullable(),
  retentionDays: z.number().int().min(0),
});
export type Brand = z.infer<typeof brandSchema>;

/**
 * What the BFF writes into the HTML of a wizard route (`<script type="application/json"
 * id="page-data">`), so that its first screen needs no API call: the brand, and the flow of
 * `/verify/:flowId`.
 */
export const pageDataSchema = z.object({
  brand: brandSchema,
  flow: flowSchema.optional(),
});
export type PageData = z.infer<typeof pageDataSchema>;
