import { describe, expect, it } from 'vitest';
import { loggableUrl } from './loggable-url.js';

describe('loggableUrl', () => {
  it('hides the tokens of mailed links and what a sign-in provider sends back, and keeps the rest', () => {
    expect(loggableUrl('/reset-password?token=abc123')).toBe('/reset-password?token=[redacted]');
    expect(loggableUrl('/api/v1/auth/oidc/campus/callback?code=c0de&state=s7&iss=https%3A%2F%2Fid.example')).toBe(
      '/api/v1/auth/oidc/campus/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fid.example',
    );
    expect(loggableUrl('/x?TOKEN=a&%74oken=b&page=2')).toBe('/x?TOKEN=[redacted]&%74oken=[redacted]&page=2');
    expect(loggableUrl('/api/v1/videos?page=2&query=cats')).toBe('/api/v1/videos?page=2&query=cats');
    expect(loggableUrl('/plain/path')).toBe('/plain/path');
    expect(loggableUrl('/x?%E0%A4%A=1&token')).toBe('/x?%E0%A4%A=1&token=[redacted]');
  });
});
