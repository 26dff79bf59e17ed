import { VIDEO_FAILURE_REASONS } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';

type Reason = keyof typeof VIDEO_FAILURE_REASONS;

// One literal key per reason, so that the catalogue check sees each one asked for.
const IN_LANGUAGE: Record<Reason, () => string> = {
  unreadable: () => i18n.t('videos:failureReasons.unreadable'),
  noVideo: () => i18n.t('videos:failureReasons.noVideo'),
  missingSource: () => i18n.t('videos:failureReasons.missingSource'),
  timeout: () => i18n.t('videos:failureReasons.timeout'),
  failed: () => i18n.t('videos:failureReasons.failed'),
  unknown: () => i18n.t('videos:failureReasons.unknown'),
};

/**
 * Why a video failed, in the interface's language: the server answers its reasons in English (as
 * clients match them), and each known one has its translation; one this client does not know (a
 * newer server's) is shown as the server wrote it.
 */
export function failureReasonText(reason: string): string {
  const known = (Object.keys(VIDEO_FAILURE_REASONS) as Reason[]).find((k) => VIDEO_FAILURE_REASONS[k] === reason);
  return known ? IN_LANGUAGE[known]() : reason;
}
