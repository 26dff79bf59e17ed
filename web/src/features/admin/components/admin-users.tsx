import { type AdminUser, MAX_BAN_REASON_LENGTH, ROLES } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useAuth } from '@/lib/auth';
import { formatNumber } from '@/lib/format';
import { useAdminUsers, useUpdateUser } from '../api/admin.api';
import { formatBytes } from '@/lib/format';
import { formatQuota, parseQuota, quotaText } from '../lib/format';
import { Badge, Cell, ErrorText, Pager, Section, SelectField, Table } from './admin-ui';
import { TurnOffTwoFactor } from './turn-off-two-factor';

/** The names of the roles, as the filter, the role menus and the toasts show them. */
function useRoleLabels(): Record<AdminUser['role'], string> {
  const { t } = useTranslation('admin');
  return { user: t('users.role.user'), moderator: t('users.role.moderator'), admin: t('users.role.admin') };
}

/** Accounts: search, role, ban and unban, quotas and storage used, two-factor sign-in turned off for someone locked out. */
export function AdminUsers() {
  const { t } = useTranslation('admin');
  const roleLabel = useRoleLabels();
  const [query, setQuery] = useState('');
  const [role, setRole] = useState('');
  const [banned, setBanned] = useState('');
  const [pageNumber, setPage] = useState(1);
  const { data, error, isPending } = useAdminUsers({ query: query.trim() || undefined, role: role || undefined, banned: banned || undefined, pageNumber });
  const filter = (set: (v: string) => void) => (v: string) => {
    set(v);
    setPage(1);
  };
  return (
    <Section title={t('users.title')}>
      <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-[1fr_12rem_12rem]">
        <TextField label={t('users.search')} type="search" value={query} onChange={(e) => filter(setQuery)(e.target.value)} />
        <SelectField label={t('users.roleFilter')} value={role} onChange={(e) => filter(setRole)(e.target.value)}>
          <option value="">{t('users.anyRole')}</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {roleLabel[r]}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('users.stateFilter')} value={banned} onChange={(e) => filter(setBanned)(e.target.value)}>
          <option value="">{t('users.anyState')}</option>
          <option value="false">{t('users.active')}</option>
          <option value="true">{t('users.banned')}</option>
        </SelectField>
      </div>
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : (
        <>
          <Table
            label={t('users.title')}
            head={[t('users.column.account'), t('users.column.role'), t('users.column.storage'), t('users.column.quotas'), t('users.column.state')]}
          >
            {data?.users.map((u) => (
              <UserRow key={u._id} user={u} />
            ))}
          </Table>
          {data && data.users.length === 0 && <p className="py-6 text-center text-sm text-neutral-500">{t('users.empty')}</p>}
          {data && <Pager page={data.currentPage} totalPages={data.totalPages} onPage={setPage} />}
        </>
      )}
    </Section>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const roleLabel = useRoleLabels();
  const me = useAuth().user;
  const update = useUpdateUser();
  const toast = useToast();
  const [editing, setEditing] = useState<'quota' | 'ban' | null>(null);
  const save = (patch: Parameters<typeof update.mutate>[0]['patch'], done: string) =>
    update.mutate(
      { id: user._id, patch },
      {
        onSuccess: () => {
          toast.show(done, 'success');
          setEditing(null);
        },
        onError: (err) => toast.show(err.message, 'error'),
      },
    );
  const staff = user.role !== 'user';
  return (
    <tr>
      <Cell>
        <p className="font-medium">{user.fullName}</p>
        <p className="text-xs text-neutral-500 dark:text-neutral-400">
          @{user.username} · {user.email}
        </p>
      </Cell>
      <Cell>
        <label className="sr-only" htmlFor={`role-${user._id}`}>
          {t('users.roleOf', { username: user.username })}
        </label>
        <select
          id={`role-${user._id}`}
          value={user.role}
          disabled={user._id === me?._id || update.isPending}
          onChange={(e) => {
            const role = e.target.value as AdminUser['role'];
            save({ role }, t('users.roleChanged', { username: user.username, role: roleLabel[role] }));
          }}
          className="rounded-lg border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {roleLabel[r]}
            </option>
          ))}
        </select>
      </Cell>
      <Cell>
        {formatBytes(user.storageUsedBytes)}
        <p className="text-xs text-neutral-500 dark:text-neutral-400">
          {t('users.videos', { count: user.videosCount, formatted: formatNumber(user.videosCount) })}
        </p>
      </Cell>
      <Cell>
        {editing === 'quota' ? (
          <QuotaForm
            user={user}
            busy={update.isPending}
            onCancel={() => setEditing(null)}
            onSave={(p) => save(p, t('users.quotasSaved', { username: user.username }))}
          />
        ) : (
          <div className="flex flex-col items-start gap-1">
            <span>{t('users.quotaTotal', { quota: formatQuota(user.quotaBytes) })}</span>
            <span>{t('users.quotaDaily', { quota: formatQuota(user.dailyQuotaBytes) })}</span>
            <Button size="sm" variant="ghost" onClick={() => setEditing('quota')} aria-label={t('users.changeQuotasLabel', { username: user.username })}>
              {t('users.change')}
            </Button>
          </div>
        )}
      </Cell>
      <Cell>
        <div className="flex flex-col items-start gap-2">
          {user.banned ? (
            <Badge tone="bad">{t('users.banned')}</Badge>
          ) : user.approvalPending ? (
            <Badge tone="warn">{t('users.waitingApproval')}</Badge>
          ) : (
            <Badge tone="good">{t('users.active')}</Badge>
          )}
          {user.banReason && <span className="text-xs text-neutral-500 dark:text-neutral-400">{user.banReason}</span>}
          {user.twoFactorEnabled && <Badge>{t('users.twoFactorOn')}</Badge>}
          <TurnOffTwoFactor user={user} self={user._id === me?._id} />
          {/* What counts when the site lets only the accounts an admin has allowed go live. */}
          <label className="flex items-center gap-2 text-xs text-neutral-700 dark:text-neutral-300">
            <input
              type="checkbox"
              className="h-4 w-4 accent-rose-600"
              checked={user.liveAllowed}
              disabled={update.isPending}
              aria-label={t('users.mayGoLiveLabel', { username: user.username })}
              onChange={(e) =>
                save(
                  { liveAllowed: e.target.checked },
                  e.target.checked ? t('users.mayGoLiveLabel', { username: user.username }) : t('users.mayNoLongerGoLive', { username: user.username }),
                )
              }
            />
            {t('users.mayGoLive')}
          </label>
          {user.approvalPending && (
            <Button size="sm" onClick={() => save({ approved: true }, t('users.approved', { username: user.username }))}>
              {t('users.approve')}
            </Button>
          )}
          {user.banned ? (
            <Button size="sm" onClick={() => save({ banned: false }, t('users.unbanned', { username: user.username }))}>
              {t('users.unban')}
            </Button>
          ) : editing === 'ban' ? (
            <BanForm
              busy={update.isPending}
              onCancel={() => setEditing(null)}
              onBan={(reason) => save({ banned: true, banReason: reason }, t('users.bannedToast', { username: user.username }))}
            />
          ) : (
            !staff && (
              <Button size="sm" variant="danger" onClick={() => setEditing('ban')} aria-label={t('users.banLabel', { username: user.username })}>
                {t('users.ban')}
              </Button>
            )
          )}
        </div>
      </Cell>
    </tr>
  );
}

function QuotaForm({
  user,
  busy,
  onSave,
  onCancel,
}: {
  user: AdminUser;
  busy: boolean;
  onSave: (p: { quotaBytes: number | null; dailyQuotaBytes: number | null }) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  const [total, setTotal] = useState(() => quotaText(user.quotaBytes));
  const [daily, setDaily] = useState(() => quotaText(user.dailyQuotaBytes));
  const totalQuota = parseQuota(total);
  const dailyQuota = parseQuota(daily);
  return (
    <form
      className="flex w-56 flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (totalQuota.ok && dailyQuota.ok) onSave({ quotaBytes: totalQuota.bytes, dailyQuotaBytes: dailyQuota.bytes });
      }}
    >
      <TextField
        label={t('users.totalQuota')}
        placeholder={t('quota.siteDefault')}
        value={total}
        onChange={(e) => setTotal(e.target.value)}
        error={totalQuota.ok ? undefined : totalQuota.error}
      />
      <TextField
        label={t('users.dailyQuota')}
        placeholder={t('quota.siteDefault')}
        value={daily}
        onChange={(e) => setDaily(e.target.value)}
        error={dailyQuota.ok ? undefined : dailyQuota.error}
      />
      <div className="flex gap-2">
        <Button size="sm" variant="primary" type="submit" disabled={busy || !totalQuota.ok || !dailyQuota.ok}>
          {t('save')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}

function BanForm({ busy, onBan, onCancel }: { busy: boolean; onBan: (reason: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('admin');
  const [reason, setReason] = useState('');
  return (
    <form
      className="flex w-56 flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim()) onBan(reason.trim());
      }}
    >
      <TextField label={t('users.banReason')} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={MAX_BAN_REASON_LENGTH} />
      <div className="flex gap-2">
        <Button size="sm" variant="danger" type="submit" disabled={busy || !reason.trim()}>
          {t('users.banAccount')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
      </div>
    </form>
  );
}
