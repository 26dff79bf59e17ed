import { z } from 'zod';
import { Id, IsoDate, PageInfo } from './common.js';
import { Role } from './users.js';

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

export const REPORT_REASONS = ['spam', 'harassment', 'sexual', 'violence', 'copyright', 'other'] as const;
export const ReportReason = z.enum(REPORT_REASONS, { error: `reason must be one of ${REPORT_REASONS.join(', ')}` });
export const REPORT_TARGETS = ['video', 'comment', 'channel'] as const;
export const ReportTargetType = z.enum(REPORT_TARGETS, { error: `targetType must be one of ${REPORT_TARGETS.join(', ')}` });
export type ReportTargetType = z.infer<typeof ReportTargetType>;

export const ReportBody = z.object({
  targetType: ReportTargetType,
  targetId: Id,
  reason: ReportReason,
  note: z.string({ error: 'note must be text' }).trim().max(1000, 'note must be at most 1000 characters').default(''),
});
export type ReportBody = z.infer<typeof ReportBody>;

export const Report = z.object({
  _id: Id,
  targetType: ReportTargetType,
  targetId: z.string(),
  /** A reason from REPORT_REASONS, or 'appeal' for an owner's appeal of a takedown. */
  reason: z.string(),
  note: z.string(),
  state: z.enum(['open', 'resolved', 'dismissed']),
  resolution: z.string().nullable(),
  createdAt: IsoDate,
});
export type Report = z.infer<typeof Report>;

export const REPORT_STATES = ['open', 'resolved', 'dismissed'] as const;
export const ReportQueueQuery = z.object({
  state: z.enum(REPORT_STATES, { error: `state must be one of ${REPORT_STATES.join(', ')}` }).default('open'),
});

/** What the queue shows of a reported item, so a moderator can judge it without opening it. */
export const ReportPreview = z.object({
  title: z.string(),
  text: z.string(),
  thumbnail: z.string().nullable(),
  owner: z.object({ _id: z.string(), username: z.string(), banned: z.boolean() }).nullable(),
  /** The video's takedown, if it is hidden, with the owner's appeal. */
  hidden: z.object({ reason: z.string(), appeal: z.string().nullable() }).nullable(),
  /** False once the item is gone (deleted). */
  exists: z.boolean(),
});

/** Reports of one target, grouped, newest first. */
export const ReportGroup = z.object({
  targetType: ReportTargetType,
  targetId: z.string(),
  count: z.number().int(),
  reasons: z.record(z.string(), z.number().int()),
  preview: ReportPreview,
  reports: z.array(Report.extend({ reporter: z.object({ _id: z.string(), username: z.string() }) })),
  lastReportedAt: IsoDate,
});
export type ReportGroup = z.infer<typeof ReportGroup>;

export const MODERATION_ACTIONS = ['dismiss', 'hide', 'restore', 'delete', 'ban'] as const;
export const ModerationBody = z.object({
  action: z.enum(MODERATION_ACTIONS, { error: `action must be one of ${MODERATION_ACTIONS.join(', ')}` }),
  note: z.string({ error: 'note must be text' }).trim().max(1000, 'note must be at most 1000 characters').default(''),
});
export type ModerationBody = z.infer<typeof ModerationBody>;

export const MAX_APPEAL_LENGTH = 2000;
export const AppealBody = z.object({
  text: z
    .string({ error: 'text is required' })
    .trim()
    .min(1, 'text is required')
    .max(MAX_APPEAL_LENGTH, `text must be at most ${MAX_APPEAL_LENGTH} characters`),
});

export const AuditQuery = z.object({
  pageNumber: z.coerce
    .number({ error: 'pageNumber must be a whole number' })
    .int('pageNumber must be a whole number')
    .min(1, 'pageNumber must be at least 1')
    .max(1_000_000, 'pageNumber must be at most 1000000')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a whole number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize must be at least 1')
    .max(100, 'pageSize must be at most 100')
    .default(25),
});

const bytesOrDefault = (name: string) =>
  z
    .number({ error: `${name} must be a number of bytes, -1 (unlimited) or null (the site's default)` })
    .int(`${name} must be a whole number`)
    .min(-1, `${name} must be -1 (unlimited) or more`)
    .nullable();

export const AdminUsersQuery = z.object({
  query: z.string().trim().max(100, 'query must be at most 100 characters').optional(),
  role: Role.optional(),
  banned: z.enum(['true', 'false'], { error: 'banned must be true or false' }).optional(),
  pageNumber: AuditQuery.shape.pageNumber,
  pageSize: AuditQuery.shape.pageSize,
});

export const AdminUser = z.object({
  _id: Id,
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: Role,
  banned: z.boolean(),
  banReason: z.string().nullable(),
  approvalPending: z.boolean(),
  /** The account's own quotas; null means the site's default, -1 unlimited. */
  quotaBytes: z.number().int().nullable(),
  dailyQuotaBytes: z.number().int().nullable(),
  /** Bytes of uploaded sources the account keeps. */
  storageUsedBytes: z.number().int(),
  videosCount: z.number().int(),
  /** Whether signing in asks for a code from an authenticator app; an admin can turn it off for someone who lost theirs. */
  twoFactorEnabled: z.boolean(),
  /** Whether an admin has allowed the account to go live (what counts when the site lets only approved accounts). */
  liveAllowed: z.boolean(),
  createdAt: IsoDate,
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserPage = PageInfo.extend({ users: z.array(AdminUser) });
export type AdminUserPage = z.infer<typeof AdminUserPage>;

export const MAX_BAN_REASON_LENGTH = 500;
export const AdminUserPatch = z
  .object({
    role: Role.optional(),
    banned: z.boolean({ error: 'banned must be true or false' }).optional(),
    banReason: z
      .string({ error: 'banReason must be text' })
      .trim()
      .min(1, 'banReason must not be empty')
      .max(MAX_BAN_REASON_LENGTH, `banReason must be at most ${MAX_BAN_REASON_LENGTH} characters`)
      .optional(),
    approved: z.literal(true, { error: 'approved can only be true' }).optional(),
    quotaBytes: bytesOrDefault('quotaBytes').optional(),
    dailyQuotaBytes: bytesOrDefault('dailyQuotaBytes').optional(),
    liveAllowed: z.boolean({ error: 'liveAllowed must be true or false' }).optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, { message: 'No change given' });
export type AdminUserPatch = z.infer<typeof AdminUserPatch>;

export const AdminStats = z.object({
  users: z.number().int(),
  bannedUsers: z.number().int(),
  pendingApprovals: z.number().int(),
  videos: z.object({ total: z.number().int(), ready: z.number().int(), processing: z.number().int(), failed: z.number().int(), hidden: z.number().int() }),
  publicVideos: z.number().int(),
  storageBytes: z.number().int(),
  openReports: z.number().int(),
});
export type AdminStats = z.infer<typeof AdminStats>;
