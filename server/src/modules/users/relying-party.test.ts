import { describe, expect, it } from 'vitest';
import { relyingParty } from './relying-party.js';

const request = (protocol: string, host: string) => ({ protocol, host, hostname: host.replace(/:\d+$/, '') });

describe('relyingParty', () => {
  it("is PUBLIC_URL's host and origin when set, whatever the request was sent to", () => {
    const rp = relyingParty({ publicUrl: 'https://video.example.org', allowedOrigins: [] }, request('http', '10.0.0.5:7000'));
    expect(rp).toEqual({ id: 'video.example.org', origins: ['https://video.example.org'] });
  });

  it("is the request's own host and origin otherwise, its port in the origin only", () => {
    expect(relyingParty({ publicUrl: null, allowedOrigins: [] }, request('http', 'localhost:7000'))).toEqual({
      id: 'localhost',
      origins: ['http://localhost:7000'],
    });
    expect(relyingParty({ publicUrl: null, allowedOrigins: [] }, request('https', 'video.example.org'))).toEqual({
      id: 'video.example.org',
      origins: ['https://video.example.org'],
    });
  });

  it('accepts a web client from ALLOWED_ORIGINS on the same host or a subdomain, and no other', () => {
    const rp = relyingParty(
      {
        publicUrl: 'https://example.org',
        allowedOrigins: ['https://app.example.org', 'https://example.org:8443', 'https://cdn.other.net', 'https://badexample.org'],
      },
      request('https', 'example.org'),
    );
    expect(rp).toEqual({ id: 'example.org', origins: ['https://example.org', 'https://app.example.org', 'https://example.org:8443'] });
  });
});
