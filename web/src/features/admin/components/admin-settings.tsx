import { type InstanceSettings, LADDER_RUNGS, LIVE_ALLOWED, SIGNUP_MODES } from '@reelhouse/contract';
import { useState } from 'react';
import { Button, InlineMessage, Spinner, TextArea, TextField } from '@/components/ui/primitives';
import { ApiError } from '@/lib/api-client';
import { useInstance } from '@/features/instance/api/instance.api';
import { useAdminSettings, useUpdateSettings } from '../api/admin.api';
import { formatQuota } from '../lib/format';
import { numberOrNull, type SettingsErrors, settingsPatch } from '../lib/settings-form';
import { ErrorText, Section, SelectField } from './admin-ui';

const SIGNUP_LABEL = {
  open: 'Open: anyone may sign up',
  closed: 'Closed: nobody may sign up',
  approval: 'By approval: an admin approves each account',
} as const;

const LIVE_ALLOWED_LABEL = {
  everyone: 'Everyone',
  approved: 'Accounts an admin has allowed (on the Users page), and admins',
  nobody: 'Nobody',
} as const;

/** Every instance setting, checked with the server's own rules before it is sent. */
export function AdminSettings() {
  const { data: saved, error, isPending } = useAdminSettings();
  if (isPending) return <Spinner />;
  if (!saved) return <ErrorText error={error} />;
  return <SettingsForm saved={saved} />;
}

function SettingsForm({ saved }: { saved: InstanceSettings }) {
  const [draft, setDraft] = useState(saved);
  const [text, setText] = useState(() => numbersAsText(saved));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [done, setDone] = useState(false);
  const update = useUpdateSettings();
  const providers = useInstance().data?.signInProviders ?? [];
  // Saved settings that change (after a save, or a refetch) replace the draft, during render so no frame shows the old one.
  const [draftOf, setDraftOf] = useState(saved);
  if (draftOf !== saved) {
    setDraftOf(saved);
    setDraft(saved);
    setText(numbersAsText(saved));
  }
  const set = <K extends keyof InstanceSettings>(key: K, value: InstanceSettings[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setDone(false);
  };
  const setNumber = (key: NumberKey, value: string) => {
    setText((t) => ({ ...t, [key]: value }));
    set(key, numberOrNull(value) as never);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const { patch, errors: found } = settingsPatch(saved, draft);
    setErrors(found);
    if (!patch) return;
    update.mutate(patch, {
      onSuccess: () => setDone(true),
      onError: (err) => {
        const fields = err instanceof ApiError ? (err.data as { errors?: { path: string; message: string }[] } | null)?.errors : undefined;
        setErrors(fields?.length ? Object.fromEntries(fields.map((f) => [f.path, f.message])) : { form: err.message });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl">
      <Section title="The site">
        <div className="flex flex-col gap-4">
          <TextField
            label="Site name"
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
            error={errors.name}
            hint="Shown in the page title and link previews"
          />
          <TextArea label="Description" value={draft.description} onChange={(e) => set('description', e.target.value)} error={errors.description} />
          <SelectField label="Sign-ups" value={draft.signupMode} onChange={(e) => set('signupMode', e.target.value as InstanceSettings['signupMode'])}>
            {SIGNUP_MODES.map((m) => (
              <option key={m} value={m}>
                {SIGNUP_LABEL[m]}
              </option>
            ))}
          </SelectField>
          <Check
            label="Demo account"
            hint="Lets visitors sign in to a shared account to try the site"
            checked={draft.demoAccount}
            onChange={(v) => set('demoAccount', v)}
          />
          <Check
            label="Password sign-in"
            hint={
              providers.length
                ? `Off: people sign up and in only with ${providers.map((p) => p.label).join(' or ')}; admins keep their passwords`
                : 'Needs single sign-on (OIDC_PROVIDERS) before it can be turned off'
            }
            checked={draft.passwordSignIn}
            disabled={!providers.length && draft.passwordSignIn}
            onChange={(v) => set('passwordSignIn', v)}
          />
          <ErrorText error={errors.passwordSignIn ? new Error(errors.passwordSignIn) : null} />
        </div>
      </Section>
      <Section title="Uploads">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label="Largest video (bytes)"
            inputMode="numeric"
            value={text.maxVideoBytes}
            onChange={(e) => setNumber('maxVideoBytes', e.target.value)}
            error={errors.maxVideoBytes}
            hint={hintBytes(draft.maxVideoBytes)}
          />
          <TextField
            label="Longest video (seconds)"
            inputMode="numeric"
            placeholder="No limit"
            value={text.maxVideoDurationSeconds}
            onChange={(e) => setNumber('maxVideoDurationSeconds', e.target.value)}
            error={errors.maxVideoDurationSeconds}
            hint="Empty for no limit"
          />
          <TextField
            label="Default storage quota (bytes)"
            inputMode="numeric"
            value={text.defaultQuotaBytes}
            onChange={(e) => setNumber('defaultQuotaBytes', e.target.value)}
            error={errors.defaultQuotaBytes}
            hint={`${hintBytes(draft.defaultQuotaBytes)}; -1 for no limit`}
          />
          <TextField
            label="Default daily upload quota (bytes)"
            inputMode="numeric"
            value={text.defaultDailyQuotaBytes}
            onChange={(e) => setNumber('defaultDailyQuotaBytes', e.target.value)}
            error={errors.defaultDailyQuotaBytes}
            hint={`${hintBytes(draft.defaultDailyQuotaBytes)}; -1 for no limit`}
          />
        </div>
      </Section>
      <Section title="Lives">
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <SelectField
              label="Who may go live"
              value={draft.liveAllowed}
              onChange={(e) => set('liveAllowed', e.target.value as InstanceSettings['liveAllowed'])}
            >
              {LIVE_ALLOWED.map((m) => (
                <option key={m} value={m}>
                  {LIVE_ALLOWED_LABEL[m]}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            label="Most lives on air at once"
            inputMode="numeric"
            value={text.maxLivesOnAir}
            onChange={(e) => setNumber('maxLivesOnAir', e.target.value)}
            error={errors.maxLivesOnAir}
            hint="On the whole site; 0 for no limit"
          />
          <TextField
            label="Most lives on air per account"
            inputMode="numeric"
            value={text.maxLivesOnAirPerUser}
            onChange={(e) => setNumber('maxLivesOnAirPerUser', e.target.value)}
            error={errors.maxLivesOnAirPerUser}
            hint="At once; 0 for no limit"
          />
          <TextField
            label="Longest live (minutes)"
            inputMode="numeric"
            value={text.maxLiveMinutes}
            onChange={(e) => setNumber('maxLiveMinutes', e.target.value)}
            error={errors.maxLiveMinutes}
            hint="A live is ended when it reaches this"
          />
        </div>
      </Section>
      <Section title="Processing">
        <fieldset aria-describedby="rungs-hint">
          <legend className="text-sm font-medium text-neutral-700 dark:text-neutral-300">Ladder rungs to make</legend>
          <div className="mt-2 flex flex-wrap gap-4">
            {LADDER_RUNGS.map((h) => (
              <Check
                key={h}
                label={`${h}p`}
                checked={draft.ladderRungs.includes(h)}
                onChange={(on) => set('ladderRungs', on ? [...draft.ladderRungs, h].sort((a, b) => a - b) : draft.ladderRungs.filter((r) => r !== h))}
              />
            ))}
          </div>
          <p id="rungs-hint" className="mt-1 text-xs text-neutral-500 dark:text-neutral-400">
            New videos get these rungs, never above their own size.
          </p>
          {errors.ladderRungs && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.ladderRungs}</p>}
        </fieldset>
      </Section>
      <div className="flex flex-col items-start gap-3">
        {errors.form && <InlineMessage>{errors.form}</InlineMessage>}
        {done && <InlineMessage kind="success">Settings saved</InlineMessage>}
        <Button type="submit" variant="primary" disabled={update.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}

type NumberKey =
  'maxVideoBytes' | 'maxVideoDurationSeconds' | 'defaultQuotaBytes' | 'defaultDailyQuotaBytes' | 'maxLivesOnAir' | 'maxLivesOnAirPerUser' | 'maxLiveMinutes';
const numbersAsText = (s: InstanceSettings): Record<NumberKey, string> => ({
  maxVideoBytes: String(s.maxVideoBytes),
  maxVideoDurationSeconds: s.maxVideoDurationSeconds === null ? '' : String(s.maxVideoDurationSeconds),
  defaultQuotaBytes: String(s.defaultQuotaBytes),
  defaultDailyQuotaBytes: String(s.defaultDailyQuotaBytes),
  maxLivesOnAir: String(s.maxLivesOnAir),
  maxLivesOnAirPerUser: String(s.maxLivesOnAirPerUser),
  maxLiveMinutes: String(s.maxLiveMinutes),
});
const hintBytes = (n: number | null) => (typeof n === 'number' && Number.isFinite(n) ? formatQuota(n) : '—');

function Check({
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <label className="flex items-start gap-2 text-sm text-neutral-800 dark:text-neutral-200">
      <input type="checkbox" className="mt-0.5 h-4 w-4 accent-rose-600" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {label}
        {hint && <span className="block text-xs text-neutral-500 dark:text-neutral-400">{hint}</span>}
      </span>
    </label>
  );
}
