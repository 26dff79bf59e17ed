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
  'GET /api/v1/oembed': {
    access: 'public',
    async valid(w) {
      const owner = await w.user();
      const id = await w.video(owner);
      // inject() sends Host: localhost:80, the site's own origin when PUBLIC_URL is unset.
      return { as: null, status: 200, query: { url: `http://localhost/video/${id}`, maxwidth: '480', maxheight: '480', format: 'json' } };
    },
  },
};
