import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Brand } from '@/shared/contract/page-data';
import { bffPaths } from '@/shared/contract/bff-paths';
import { brandPalette } from '@/server-shared/color-contrast';
import type { BffConfig } from '../config';
import type { BffDeps } from '../deps';
import { notFound } from '../errors';

const logoTypes: Record<string, string> = {
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

/**
 * The brand the wizard shows, from the BRAND_* settings (its colour kept for fills, with a text
 * colour that reads on it, and a darker shade for text on white where it is too light), with RETENTION_DAYS: the consent names the brand as the one receiving the data and
 * says how long it is kept. Served at /api/brand and written into the wizard's HTML (spa.ts).
 */
export function brandOf(config: BffConfig, log: FastifyBaseLogger): Brand {
  const { brand } = config;
  const palette = brand.primaryColor ? brandPalette(brand.primaryColor) : null;
  if (palette?.inkAdjusted) {
    log.info(
      { setting: brand.primaryColor, text: palette.ink },
      'BRAND_PRIMARY_COLOR has less than 4.5:1 contrast with white: buttons keep it, text and links use a darker shade',
    );
  }
  return {
    name: brand.name,
    primaryColor: palette?.fill ?? null,
    onPrimaryColor: palette?.onFill ?? null,
    primaryInkColor: palette?.ink ?? null,
    font: brand.font,
    logoUrl: brand.logoFile ? bffPaths.brandLogo : null,
    retentionDays: config.retentionDays,
  };
}

export function brandRoutes(app: FastifyInstance, { config, brand: body }: BffDeps) {
  const { brand } = config;

  app.get(bffPaths.brand, async (_request, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return body;
  });

  app.get(bffPaths.brandLogo, async (_request, reply) => {
    if (!brand.logoFile) throw notFound('No logo is set.');
    const bytes = await readFile(brand.logoFile).catch(() => null);
    if (!bytes) throw notFound('The logo file cannot be read.');
    void reply.header('cache-control', 'public, max-age=300');
    // An SVG logo is shown with <img> only; its own scripts must never run if opened directly.
    void reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
    return reply
      .type(logoTypes[path.extname(brand.logoFile).toLowerCase()] ?? 'application/octet-stream')
      .send(bytes);
  });
}
