import { describe, expect, it } from 'vitest';
import { rewriteMediaUrls } from './media-urls';

describe('rewriteMediaUrls', () => {
  it("rewrites the service's links and leaves everything else alone", () => {
    const service = 'http://127.0.0.1:8081';
    const { data, media } = rewriteMediaUrls(
      {
        documents: [{ photos: [`${service}/media/abc123`], type: 'passport' }],
        steps: [{ data: { selfiePhotoUrl: `${service}/media/def456` } }],
        resource: `${service}/v2/verifications/v1`,
        other: `${service}/v2/flows`,
        // What a person typed in a custom field is never taken for a media link.
        customFields: { website: { value: 'http://attacker.example/media/abc123' } },
        // Written by the client or the person: left alone, even links of the service.
        metadata: { avatar: '/api/staff/media/abc123', other: `${service}/media/fff999` },
        count: 3,
      },
      service,
    );
    expect(data).toEqual({
      documents: [{ photos: ['/api/staff/media/abc123'], type: 'passport' }],
      steps: [{ data: { selfiePhotoUrl: '/api/staff/media/def456' } }],
      resource: '/api/staff/verifications/v1',
      other: '/v2/flows',
      customFields: { website: { value: 'http://attacker.example/media/abc123' } },
      metadata: { avatar: '/api/staff/media/abc123', other: `${service}/media/fff999` },
      count: 3,
    });
    expect(media).toEqual([
      { id: 'abc123', url: `${service}/media/abc123` },
      { id: 'def456', url: `${service}/media/def456` },
    ]);
  });
});
