import type { Device } from '@reelhouse/contract';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/dialog';
import { DesktopIcon, PhoneIcon } from '@/components/ui/icons';
import { Button, EmptyState, InlineMessage, Spinner } from '@/components/ui/primitives';
import { i18n } from '@/i18n/i18n';
import { errorMessage } from '@/lib/api-client';
import { formatDate, timeAgo } from '@/lib/format';
import { useDevices, useSignOutDevice, useSignOutOtherDevices } from '../api/devices.api';

/** What the server names a browser or system it could not read from the user agent. */
const UNKNOWN = 'Unknown';

/** "Chrome 156 on Linux", and as much of it as the user agent told, in the interface's language. */
export function deviceName(d: Pick<Device, 'browser' | 'system'>): string {
  if (d.browser === UNKNOWN && d.system === UNKNOWN) return i18n.t('users:devices.unknownDevice');
  if (d.system === UNKNOWN) return d.browser;
  if (d.browser === UNKNOWN) return i18n.t('users:devices.unknownBrowserOn', { system: d.system });
  return i18n.t('users:devices.browserOn', { browser: d.browser, system: d.system });
}

const signedInDate = (iso: string) => formatDate(iso, { day: 'numeric', month: 'short', year: 'numeric' });

function DeviceRow({ device, onSignOut }: { device: Device; onSignOut: () => void }) {
  const { t } = useTranslation('users');
  const Icon = device.device === 'mobile' || device.device === 'tablet' ? PhoneIcon : DesktopIcon;
  const name = deviceName(device);
  return (
    <li className="flex items-start gap-3 p-4 sm:gap-4" data-testid="device">
      <span className="mt-0.5 rounded-full bg-neutral-100 p-2 text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">
        <Icon width={20} height={20} />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-neutral-900 dark:text-neutral-50">
          <span className="break-words">{name}</span>
          {device.current && (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
              {t('devices.thisDevice')}
            </span>
          )}
        </p>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{device.address ?? t('devices.addressUnknown')}</p>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          <Trans
            t={t}
            i18nKey="devices.signedIn"
            values={{ date: signedInDate(device.createdAt) }}
            components={{ time: <time dateTime={device.createdAt} /> }}
          />
          {' · '}
          {device.current ? (
            t('devices.activeNow')
          ) : (
            <Trans
              t={t}
              i18nKey="devices.active"
              values={{ ago: timeAgo(device.lastActiveAt) }}
              components={{ time: <time dateTime={device.lastActiveAt} /> }}
            />
          )}
        </p>
      </div>
      {!device.current && (
        <Button size="sm" onClick={onSignOut} aria-label={t('devices.signOutLabel', { name })}>
          {t('devices.signOut')}
        </Button>
      )}
    </li>
  );
}

type Confirming = { kind: 'one'; device: Device } | { kind: 'others'; count: number } | null;

/** The account's signed-in devices, each with a way to sign it out, and all the others at once. */
export function DeviceList({ notify }: { notify: (message: string, kind: 'success' | 'error') => void }) {
  const { t } = useTranslation('users');
  const devices = useDevices();
  const signOutOne = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const busy = signOutOne.isPending || signOutOthers.isPending;

  if (devices.isPending) return <Spinner label={t('devices.loading')} />;
  if (devices.isError) return <InlineMessage>{errorMessage(devices.error, t('devices.loadFailed'))}</InlineMessage>;
  const list = devices.data;
  if (list.length === 0) return <EmptyState>{t('devices.empty')}</EmptyState>;
  const others = list.filter((d) => !d.current).length;

  async function confirm() {
    if (!confirming) return;
    try {
      if (confirming.kind === 'one') {
        await signOutOne.mutateAsync(confirming.device._id);
        notify(t('devices.signedOutOne', { name: deviceName(confirming.device) }), 'success');
      } else {
        const { signedOut } = await signOutOthers.mutateAsync();
        notify(t('devices.signedOutOthers', { count: signedOut }), 'success');
      }
    } catch (err) {
      notify(errorMessage(err, t('devices.signOutFailed')), 'error');
    } finally {
      setConfirming(null);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('devices.intro')}</p>
      <ul
        aria-label={t('devices.listLabel')}
        className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
      >
        {list.map((d) => (
          <DeviceRow key={d._id} device={d} onSignOut={() => setConfirming({ kind: 'one', device: d })} />
        ))}
      </ul>
      {others > 0 && (
        <Button variant="danger" className="self-start" disabled={busy} onClick={() => setConfirming({ kind: 'others', count: others })}>
          {t('devices.signOutOthers')}
        </Button>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.kind === 'one' ? t('devices.confirmOneTitle') : t('devices.confirmOthersTitle')}
        message={
          confirming?.kind === 'one'
            ? confirming.device.address
              ? t('devices.confirmOneAt', { name: deviceName(confirming.device), address: confirming.device.address })
              : t('devices.confirmOne', { name: deviceName(confirming.device) })
            : t('devices.confirmOthers', { count: confirming?.count ?? 0 })
        }
        confirmLabel={t('devices.signOut')}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}
