import { bffPaths } from '@/shared/contract/bff-paths';

const mediaPath = /\/media\/([A-Za-z0-9._~-]{1,200})$/;
const verificationPath = /\/v2\/verifications\/([A-Za-z0-9._-]{1,128})$/;
/**
 * What the client that created the verification (metadata) or the person (custom fields) wrote:
 * never a media link, whatever it looks like, so left exactly as it is.
 */
const writtenByPeople = new Set(['metadata', 'customFields']);

/**
 * Makes service data fit for the browser, which must never see the service's address: the
 * service's media links (`{media_url}/media/<id>`) become the BFF's media proxy path, verification
 * resources the staff API's path, and any other link to the service loses its origin. Lists the
 * media it replaced: the console shows as media only these (`staffVerificationDetailSchema.media`),
 * never a value that merely starts with the media path.
 */
export function rewriteMediaUrls(
  data: unknown,
  serviceOrigin: string,
): { data: unknown; media: { id: string; url: string }[] } {
  const media: { id: string; url: string }[] = [];
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!/^https?:\/\//i.test(value)) return value;
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return value;
      }
      // Only the service's own links: data also carries what people typed (custom fields), and a
      // link from there must never be fetched with the token.
      if (url.origin !== serviceOrigin) return value;
      const mediaMatch = mediaPath.exec(url.pathname);
      if (mediaMatch) {
        media.push({ id: mediaMatch[1], url: value });
        return bffPaths.staffMedia(mediaMatch[1]);
      }
      const verification = verificationPath.exec(url.pathname);
      return verification ? bffPaths.staffVerification(verification[1]) : url.pathname + url.search;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, v]) => [key, writtenByPeople.has(key) ? v : walk(v)]),
      );
    }
    return value;
  };
  return { data: walk(data), media };
}
