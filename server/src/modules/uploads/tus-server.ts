import type { IncomingMessage } from 'node:http';
import { Server } from '@tus/server';
import type { UploadStore } from './upload-store.js';
import type { UploadsService } from './uploads.service.js';

/** What the route learned about a creation request before handing it to tus. */
export interface AdmittedUpload {
  id: string;
  ownerId: string;
  size: number;
}

const UPLOAD_ID = /^[A-Za-z0-9_-]{6,40}$/;

/**
 * The tus extensions that work through our routes, as OPTIONS lists them: creation (with data in
 * the same request too), termination (the route's own DELETE) and expiration (Upload-Expires, and
 * the housekeeping removes what expired). Not creation-defer-length: the size is checked against
 * the limit and the quotas before a byte arrives, so a length given later is refused.
 */
const ROUTED_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration'];

/** The routed extensions the store behind the tus server has too. */
export function tusExtensions(store: UploadStore): string[] {
  return ROUTED_EXTENSIONS.filter((name) => store.datastore.hasExtension(name));
}

/** The Node request under the web Request the tus server hands its hooks. */
function nodeRequestOf(req: unknown): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

/**
 * The tus protocol server for /api/v1/uploads. Fastify routes check the caller and the rules first
 * and hand only admitted requests to it; `admitted` carries what they decided into its hooks.
 */
export function createTusServer(opts: {
  path: string;
  store: UploadStore;
  uploads: UploadsService;
  maxBytes: number;
  /** ALLOWED_ORIGINS: the tus server writes its own CORS headers, so it gets the same list. */
  allowedOrigins: readonly string[];
  admitted: WeakMap<IncomingMessage, AdmittedUpload>;
}): Server {
  const { store, uploads, admitted } = opts;
  const admittedFor = (req: unknown) => {
    const node = nodeRequestOf(req);
    const found = node && admitted.get(node);
    // @tus/server answers a thrown { status_code, body } as that response; an Error would become a 500.
    // eslint-disable-next-line no-throw-literal
    if (!found) throw { status_code: 403, body: 'Upload not admitted\n' };
    return found;
  };
  return new Server({
    path: opts.path,
    datastore: store.datastore,
    locker: store.locker,
    maxSize: opts.maxBytes,
    relativeLocation: true,
    // Only a listed origin gets CORS headers (a bare list would make tus answer `*`, or its first entry).
    allowedOrigins: (origin) => opts.allowedOrigins.includes(origin),
    allowedCredentials: opts.allowedOrigins.length > 0,
    exposedHeaders: ['X-Request-Id'],
    // Locations are relative (generateUrl leaves out scheme and host), so tus needs no forwarded
    // header; reading them itself would bypass TRUST_PROXY's rule on who may send them.
    respectForwardedHeaders: false,
    // Termination is the route's own (it also removes the row); the others are the protocol's.
    namingFunction: (req) => store.storeId(admittedFor(req).id),
    getFileIdFromRequest: (_req, lastPath) => (lastPath && UPLOAD_ID.test(lastPath) ? store.storeId(lastPath) : undefined),
    generateUrl: (_req, { path, id }) => `${path}/${store.uploadIdOf(id)}`,
    onUploadCreate: async (req, upload) => {
      const { id, ownerId } = admittedFor(req);
      await uploads.record(id, ownerId, upload.size ?? 0, upload.metadata?.filename ?? '');
      return {};
    },
  });
}
