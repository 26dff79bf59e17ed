import type { Visibility } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/primitives';
import { ChoiceGroup } from './choice-group';

/**
 * Who sees the new video from the start, and for a private one an optional time at which it turns
 * public by itself. The time is picked in the viewer's own time zone; the server gets it in UTC.
 */
export function VisibilityChoice({
  visibility,
  onVisibility,
  schedule,
  onSchedule,
  scheduleError,
  disabled,
}: {
  visibility: Visibility;
  onVisibility: (v: Visibility) => void;
  schedule: string;
  onSchedule: (value: string) => void;
  scheduleError?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation('videos');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <ChoiceGroup
        legend={t('fields.visibility')}
        name="visibility"
        value={visibility}
        disabled={disabled}
        onChange={onVisibility}
        options={[
          { value: 'public', label: t('visibility.public'), hint: t('visibility.publicHint') },
          { value: 'unlisted', label: t('visibility.unlisted'), hint: t('visibility.unlistedHint') },
          { value: 'private', label: t('visibility.private'), hint: t('visibility.privateHint') },
        ]}
      />
      {visibility === 'private' && (
        <TextField
          label={t('visibility.schedule')}
          type="datetime-local"
          value={schedule}
          disabled={disabled}
          onChange={(e) => onSchedule(e.target.value)}
          error={scheduleError}
          hint={schedule ? t('visibility.scheduledHint', { zone }) : t('visibility.unscheduledHint', { zone })}
        />
      )}
    </div>
  );
}
