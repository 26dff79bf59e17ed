import { type InstanceSettings, LADDER_RUNGS, LIVE_ALLOWED, SIGNUP_MODES } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, Spinner, TextArea, TextField } from '@/components/ui/primitives';
import { currentLanguage } from '@/i18n/i18n';
import { ApiError } from '@/lib/api-client';
import { useInstance } from '@/features/instance/api/instance.api';
import { useAdminSettings, useUpdateSettings } from '../api/admin.api';
import { formatQuota } from '../lib/format';
import { numberOrNull, type SettingsErrors, settingsPatch } from '../lib/settings-form';
import { ErrorText, Section, SelectField } from './admin-ui';

/** Every instance setting, checked with the server's own rules before it is sent. */
export function AdminSettings() {
  const { data: saved, error, isPending } = useAdminSettings();
  if (isPending) return <Spinner />;
  if (!saved) return <ErrorText error={error} />;
  return <SettingsForm saved={saved} />;
}

function SettingsForm({ saved }: { saved: InstanceSettings }) {
  const { t } = useTranslation('admin');
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
    setText((texts) => ({ ...texts, [key]: value }));
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

  const signupLabel = {
    open: t('settings.signup.open'),
    closed: t('settings.signup.closed'),
    approval: t('settings.signup.approval'),
  };
  const liveAllowedLabel = {
    everyone: t('settings.liveAllowed.everyone'),
    approved: t('settings.liveAllowed.approved'),
    nobody: t('settings.liveAllowed.nobody'),
  };
  const noLimit = (n: number | null) => t('settings.bytesOrNoLimit', { size: hintBytes(n) });

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl">
      <Section title={t('settings.site')}>
        <div className="flex flex-col gap-4">
          <TextField
            label={t('settings.siteName')}
            value={draft.name}
            onChange={(e) => set('name', e.target.value)}
            error={errors.name}
            hint={t('settings.siteNameHint')}
          />
          <TextArea
            label={t('settings.description')}
            value={draft.description}
            onChange={(e) => set('description', e.target.value)}
            error={errors.description}
          />
          <SelectField
            label={t('settings.signups')}
            value={draft.signupMode}
            onChange={(e) => set('signupMode', e.target.value as InstanceSettings['signupMode'])}
          >
            {SIGNUP_MODES.map((m) => (
              <option key={m} value={m}>
                {signupLabel[m]}
              </option>
            ))}
          </SelectField>
          <Check label={t('settings.demoAccount')} hint={t('settings.demoAccountHint')} checked={draft.demoAccount} onChange={(v) => set('demoAccount', v)} />
          <Check
            label={t('settings.passwordSignIn')}
            hint={
              providers.length
                ? t('settings.passwordSignInHint', {
                    providers: new Intl.ListFormat(currentLanguage(), { type: 'disjunction' }).format(providers.map((p) => p.label)),
                  })
                : t('settings.passwordSignInNeedsSso')
            }
            checked={draft.passwordSignIn}
            disabled={!providers.length && draft.passwordSignIn}
            onChange={(v) => set('passwordSignIn', v)}
          />
          <ErrorText error={errors.passwordSignIn ? new Error(errors.passwordSignIn) : null} />
        </div>
      </Section>
      <Section title={t('settings.uploads')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label={t('settings.maxVideoBytes')}
            inputMode="numeric"
            value={text.maxVideoBytes}
            onChange={(e) => setNumber('maxVideoBytes', e.target.value)}
            error={errors.maxVideoBytes}
            hint={hintBytes(draft.maxVideoBytes)}
          />
          <TextField
            label={t('settings.maxVideoDuration')}
            inputMode="numeric"
            placeholder={t('settings.noLimit')}
            value={text.maxVideoDurationSeconds}
            onChange={(e) => setNumber('maxVideoDurationSeconds', e.target.value)}
            error={errors.maxVideoDurationSeconds}
            hint={t('settings.emptyForNoLimit')}
          />
          <TextField
            label={t('settings.defaultQuota')}
            inputMode="numeric"
            value={text.defaultQuotaBytes}
            onChange={(e) => setNumber('defaultQuotaBytes', e.target.value)}
            error={errors.defaultQuotaBytes}
            hint={noLimit(draft.defaultQuotaBytes)}
          />
          <TextField
            label={t('settings.defaultDailyQuota')}
            inputMode="numeric"
            value={text.defaultDailyQuotaBytes}
            onChange={(e) => setNumber('defaultDailyQuotaBytes', e.target.value)}
            error={errors.defaultDailyQuotaBytes}
            hint={noLimit(draft.defaultDailyQuotaBytes)}
          />
        </div>
      </Section>
      <Section title={t('settings.lives')}>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <SelectField
              label={t('settings.whoMayGoLive')}
              value={draft.liveAllowed}
              onChange={(e) => set('liveAllowed', e.target.value as InstanceSettings['liveAllowed'])}
            >
              {LIVE_ALLOWED.map((m) => (
                <option key={m} value={m}>
                  {liveAllowedLabel[m]}
                </option>
              ))}
            </SelectField>
          </div>
          <TextField
            label={t('settings.maxLivesOnAir')}
            inputMode="numeric"
            value={text.maxLivesOnAir}
            onChange={(e) => setNumber('maxLivesOnAir', e.target.value)}
            error={errors.maxLivesOnAir}
            hint={t('settings.maxLivesOnAirHint')}
          />
          <TextField
            label={t('settings.maxLivesPerAccount')}
            inputMode="numeric"
            value={text.maxLivesOnAirPerUser}
            onChange={(e) => setNumber('maxLivesOnAirPerUser', e.target.value)}
            error={errors.maxLivesOnAirPerUser}
            hint={t('settings.maxLivesPerAccountHint')}
          />
          <TextField
            label={t('settings.maxLiveMinutes')}
            inputMode="numeric"
            value={text.maxLiveMinutes}
            onChange={(e) => setNumber('maxLiveMinutes', e.target.value)}
            error={errors.maxLiveMinutes}
            hint={t('settings.maxLiveMinutesHint')}
          />
        </div>
      </Section>
      <Section title={t('settings.processing')}>
        <fieldset aria-describedby="rungs-hint">
          <legend className="text-sm font-medium text-neutral-700 dark:text-neutral-300">{t('settings.ladderRungs')}</legend>
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
            {t('settings.ladderRungsHint')}
          </p>
          {errors.ladderRungs && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.ladderRungs}</p>}
        </fieldset>
      </Section>
      <div className="flex flex-col items-start gap-3">
        {errors.form && <InlineMessage>{errors.form}</InlineMessage>}
        {done && <InlineMessage kind="success">{t('settings.saved')}</InlineMessage>}
        <Button type="submit" variant="primary" disabled={update.isPending}>
          {t('settings.save')}
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
