import { z } from 'zod';
import { IsoDate } from './common.js';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';

/**
 * A remote server as admins name it: its host name in lower case (with a port where it listens on
 * one), such as `video.example.com`; a block covers its subdomains too.
 */
export const FederationDomain = z
  .string({ error: 'domain must be text' })
  .trim()
  .toLowerCase()
  .max(253, 'domain must be at most 253 characters')
  .regex(new RegExp(`^${LABEL}(?:\\.${LABEL})*(?::\\d{1,5})?$`), 'domain must be a host name such as video.example.com');

export const FederationBlockBody = z.object({ domain: FederationDomain });
export const FederationDomainParams = z.object({ domain: FederationDomain });

/** A blocked server: nothing of it comes in, nothing goes to it, and what it had here is gone. */
export const FederationBlock = z.object({
  domain: z.string(),
  /** The admin who blocked it; null once that account is gone. */
  blockedBy: z.string().nullable(),
  createdAt: IsoDate,
});
export type FederationBlock = z.infer<typeof FederationBlock>;

export const FederationBlockList = z.object({ blocks: z.array(FederationBlock) });
export type FederationBlockList = z.infer<typeof FederationBlockList>;

/** How a channel of another server may be written: @name@host, name@host, or its address. */
const HANDLE_OR_ADDRESS = /^(@?[^\s@/]+@[a-z0-9.-]+(:\d{1,5})?|https?:\/\/\S+)$/i;

export const FederationLookupQuery = z.object({
  handle: z
    .string({ error: 'handle is required' })
    .trim()
    .min(1, 'handle is required')
    .max(500, 'handle must be at most 500 characters')
    .regex(HANDLE_OR_ADDRESS, 'handle must be a handle such as @channel@video.example.com, or an address'),
});
