import type { UploadQuota } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';

/** How much the signed-in person may still upload (-1 in either quota means no limit). */
export function QuotaLine() {
  const q = useQuery({ queryKey: ['uploads', 'quota'], queryFn: () => api.get<UploadQuota>('/uploads/quota') });
  const quota = q.data;
  if (!quota) return null;
  const parts: string[] = [];
  if (quota.quotaBytes !== -1) {
    parts.push(`${formatBytes(Math.max(0, quota.quotaBytes - quota.usedBytes))} of your ${formatBytes(quota.quotaBytes)} storage left`);
  }
  if (quota.dailyQuotaBytes !== -1) {
    parts.push(`${formatBytes(Math.max(0, quota.dailyQuotaBytes - quota.usedDailyBytes))} of ${formatBytes(quota.dailyQuotaBytes)} left today`);
  }
  if (!parts.length) parts.push('No storage quota');
  return (
    <p data-testid="upload-quota" className="mb-4 text-sm text-neutral-600 dark:text-neutral-400">
      {parts.join(' · ')} · largest file {formatBytes(quota.maxUploadBytes)}
    </p>
  );
}
