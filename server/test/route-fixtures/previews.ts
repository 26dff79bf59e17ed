import type { RouteFixture } from './types.js';

export const previewsFixtures: Record<string, RouteFixture> = {
  'GET /feeds/videos.xml': {
    access: 'public',
    async valid() {
      return { as: null, status: 200 };
    },
  },
  'GET /feeds/videos.atom': {
    access: 'public',
    async valid() {
      return { as: null, status: 200 };
    },
  },
  'GET /feeds/channel/:file': {
    access: 'public',
    async valid(w) {
      const owner = await w.user();
      await w.video(owner);
      return { as: null, status: 200, params: { file: `${owner.username}.atom` } };
    },
  },
};
