import type { UploadQuota } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';

/** How much the signed-in person may still upload (-1 in either quota means no limit). */
export function QuotaLine() {
  const { t } = useTranslation('videos');
  const q = useQuery({ queryKey: ['uploads', 'quota'], queryFn: () => api.get<UploadQuota>('/uploads/quota') });
  const quota = q.data;
  if (!quota) return null;
  const parts: string[] = [];
  if (quota.quotaBytes !== -1) {
    parts.push(t('quota.storageLeft', { left: formatBytes(Math.max(0, quota.quotaBytes - quota.usedBytes)), total: formatBytes(quota.quotaBytes) }));
  }
  if (quota.dailyQuotaBytes !== -1) {
    parts.push(
      t('quota.dailyLeft', { left: formatBytes(Math.max(0, quota.dailyQuotaBytes - quota.usedDailyBytes)), total: formatBytes(quota.dailyQuotaBytes) }),
    );
  }
  if (!parts.length) parts.push(t('quota.none'));
  return (
    <p data-testid="upload-quota" className="mb-4 text-sm text-neutral-600 dark:text-neutral-400">
      {[...parts, t('quota.largestFile', { size: formatBytes(quota.maxUploadBytes) })].join(' · ')}
    </p>
  );
}
