import { z } from 'zod';
import { Id, IsoDate, PageInfo } from './common.js';

/** One line of the audit log: who did what to which item, when and why. */
export const AuditEntry = z.object({
  _id: Id,
  actor: z.object({ _id: z.string().nullable(), username: z.string() }),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string() }),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: IsoDate,
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditPage = PageInfo.extend({ entries: z.array(AuditEntry) });
export type AuditPage = z.infer<typeof AuditPage>;
