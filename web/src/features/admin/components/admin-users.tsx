import { type AdminUser, MAX_BAN_REASON_LENGTH, ROLES } from '@reelhouse/contract';
import { useState } from 'react';
import { Button, Spinner, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { useAuth } from '@/lib/auth';
import { useAdminUsers, useUpdateUser } from '../api/admin.api';
import { formatBytes, formatQuota, parseQuota, quotaText } from '../lib/format';
import { Badge, Cell, ErrorText, Pager, Section, SelectField, Table } from './admin-ui';
import { TurnOffTwoFactor } from './turn-off-two-factor';

/** Accounts: search, role, ban and unban, quotas and storage used, two-factor sign-in turned off for someone locked out. */
export function AdminUsers() {
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
    <Section title="Users">
      <div className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-[1fr_12rem_12rem]">
        <TextField label="Search by name or email" type="search" value={query} onChange={(e) => filter(setQuery)(e.target.value)} />
        <SelectField label="Role" value={role} onChange={(e) => filter(setRole)(e.target.value)}>
          <option value="">Any role</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </SelectField>
        <SelectField label="State" value={banned} onChange={(e) => filter(setBanned)(e.target.value)}>
          <option value="">Any state</option>
          <option value="false">Active</option>
          <option value="true">Banned</option>
        </SelectField>
      </div>
      <ErrorText error={error} />
      {isPending ? (
        <Spinner />
      ) : (
        <>
          <Table label="Users" head={['Account', 'Role', 'Storage used', 'Quotas', 'State']}>
            {data?.users.map((u) => (
              <UserRow key={u._id} user={u} />
            ))}
          </Table>
          {data && data.users.length === 0 && <p className="py-6 text-center text-sm text-neutral-500">No account matches.</p>}
          {data && <Pager page={data.currentPage} totalPages={data.totalPages} onPage={setPage} />}
        </>
      )}
    </Section>
  );
}

function UserRow({ user }: { user: AdminUser }) {
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
          Role of {user.username}
        </label>
        <select
          id={`role-${user._id}`}
          value={user.role}
          disabled={user._id === me?._id || update.isPending}
          onChange={(e) => save({ role: e.target.value as AdminUser['role'] }, `${user.username} is now ${e.target.value}`)}
          className="rounded-lg border border-neutral-300 bg-white px-2 py-1 text-sm dark:border-neutral-700 dark:bg-neutral-900"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Cell>
      <Cell>
        {formatBytes(user.storageUsedBytes)}
        <p className="text-xs text-neutral-500 dark:text-neutral-400">{user.videosCount} videos</p>
      </Cell>
      <Cell>
        {editing === 'quota' ? (
          <QuotaForm user={user} busy={update.isPending} onCancel={() => setEditing(null)} onSave={(p) => save(p, `Quotas of ${user.username} saved`)} />
        ) : (
          <div className="flex flex-col items-start gap-1">
            <span>Total: {formatQuota(user.quotaBytes)}</span>
            <span>Per day: {formatQuota(user.dailyQuotaBytes)}</span>
            <Button size="sm" variant="ghost" onClick={() => setEditing('quota')} aria-label={`Change quotas of ${user.username}`}>
              Change
            </Button>
          </div>
        )}
      </Cell>
      <Cell>
        <div className="flex flex-col items-start gap-2">
          {user.banned ? (
            <Badge tone="bad">Banned</Badge>
          ) : user.approvalPending ? (
            <Badge tone="warn">Waiting for approval</Badge>
          ) : (
            <Badge tone="good">Active</Badge>
          )}
          {user.banReason && <span className="text-xs text-neutral-500 dark:text-neutral-400">{user.banReason}</span>}
          {user.twoFactorEnabled && <Badge>Two-factor on</Badge>}
          <TurnOffTwoFactor user={user} self={user._id === me?._id} />
          {/* What counts when the site lets only the accounts an admin has allowed go live. */}
          <label className="flex items-center gap-2 text-xs text-neutral-700 dark:text-neutral-300">
            <input
              type="checkbox"
              className="h-4 w-4 accent-rose-600"
              checked={user.liveAllowed}
              disabled={update.isPending}
              aria-label={`${user.username} may go live`}
              onChange={(e) =>
                save({ liveAllowed: e.target.checked }, e.target.checked ? `${user.username} may go live` : `${user.username} may no longer go live`)
              }
            />
            May go live
          </label>
          {user.approvalPending && (
            <Button size="sm" onClick={() => save({ approved: true }, `${user.username} approved`)}>
              Approve
            </Button>
          )}
          {user.banned ? (
            <Button size="sm" onClick={() => save({ banned: false }, `${user.username} unbanned`)}>
              Unban
            </Button>
          ) : editing === 'ban' ? (
            <BanForm
              busy={update.isPending}
              onCancel={() => setEditing(null)}
              onBan={(reason) => save({ banned: true, banReason: reason }, `${user.username} banned`)}
            />
          ) : (
            !staff && (
              <Button size="sm" variant="danger" onClick={() => setEditing('ban')} aria-label={`Ban ${user.username}`}>
                Ban
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
  const [total, setTotal] = useState(quotaText(user.quotaBytes));
  const [daily, setDaily] = useState(quotaText(user.dailyQuotaBytes));
  const t = parseQuota(total);
  const d = parseQuota(daily);
  return (
    <form
      className="flex w-56 flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (t.ok && d.ok) onSave({ quotaBytes: t.bytes, dailyQuotaBytes: d.bytes });
      }}
    >
      <TextField label="Total quota" placeholder="Site default" value={total} onChange={(e) => setTotal(e.target.value)} error={t.ok ? undefined : t.error} />
      <TextField label="Daily quota" placeholder="Site default" value={daily} onChange={(e) => setDaily(e.target.value)} error={d.ok ? undefined : d.error} />
      <div className="flex gap-2">
        <Button size="sm" variant="primary" type="submit" disabled={busy || !t.ok || !d.ok}>
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function BanForm({ busy, onBan, onCancel }: { busy: boolean; onBan: (reason: string) => void; onCancel: () => void }) {
  const [reason, setReason] = useState('');
  return (
    <form
      className="flex w-56 flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (reason.trim()) onBan(reason.trim());
      }}
    >
      <TextField label="Reason for the ban" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={MAX_BAN_REASON_LENGTH} />
      <div className="flex gap-2">
        <Button size="sm" variant="danger" type="submit" disabled={busy || !reason.trim()}>
          Ban account
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
