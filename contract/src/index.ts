export * from './common.js';
export * from './users.js';
export * from './videos.js';
export * from './social.js';
export * from './instance.js';
export * from './admin.js';
export * from './admin-media.js';
export * from './uploads.js';
