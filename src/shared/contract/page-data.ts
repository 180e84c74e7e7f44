import { z } from 'zod';
import { flowSchema } from '../flow';

// Apart from bff-api.ts: the browser parses these on its first screen, and this file brings no
// more schemas than they need.

/**
 * GET /api/brand: the wizard's look and who stands behind it, from the BFF's settings: the brand is
 * the controller the consent names, and `retentionDays` (RETENTION_DAYS, 0: kept until erased)
 * how long the data is kept.
 */
export const brandSchema = z.object({
  name: z.string().min(1),
  /** #rrggbb with at least 4.5:1 contrast against white (darkened by the BFF if the setting had less). */
  primaryColor: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .nullable(),
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
