import type { Device } from '@reelhouse/contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { DesktopIcon, PhoneIcon } from '@/components/ui/icons';
import { Button, EmptyState, InlineMessage, Spinner } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { timeAgo } from '@/lib/format';
import { useDevices, useSignOutDevice, useSignOutOtherDevices } from '../api/devices.api';

const UNKNOWN = 'Unknown';

/** "Chrome 156 on Linux", and as much of it as the user agent told. */
export function deviceName(d: Pick<Device, 'browser' | 'system'>): string {
  if (d.browser === UNKNOWN && d.system === UNKNOWN) return 'Unknown device';
  if (d.system === UNKNOWN) return d.browser;
  return `${d.browser === UNKNOWN ? 'Unknown browser' : d.browser} on ${d.system}`;
}

const signedInDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

function DeviceRow({ device, onSignOut }: { device: Device; onSignOut: () => void }) {
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
              This device
            </span>
          )}
        </p>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{device.address ?? 'Address unknown'}</p>
        <p className="text-sm text-neutral-500 dark:text-neutral-400">
          Signed in <time dateTime={device.createdAt}>{signedInDate(device.createdAt)}</time>
          {' · '}
          {device.current ? (
            'Active now'
          ) : (
            <>
              Active <time dateTime={device.lastActiveAt}>{timeAgo(device.lastActiveAt)}</time>
            </>
          )}
        </p>
      </div>
      {!device.current && (
        <Button size="sm" onClick={onSignOut} aria-label={`Sign out ${name}`}>
          Sign out
        </Button>
      )}
    </li>
  );
}

type Confirming = { kind: 'one'; device: Device } | { kind: 'others'; count: number } | null;

/** The account's signed-in devices, each with a way to sign it out, and all the others at once. */
export function DeviceList({ notify }: { notify: (message: string, kind: 'success' | 'error') => void }) {
  const devices = useDevices();
  const signOutOne = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const busy = signOutOne.isPending || signOutOthers.isPending;

  if (devices.isPending) return <Spinner label="Loading devices" />;
  if (devices.isError) return <InlineMessage>{errorMessage(devices.error, 'Could not load your devices')}</InlineMessage>;
  const list = devices.data;
  if (list.length === 0) return <EmptyState>No devices are signed in</EmptyState>;
  const others = list.filter((d) => !d.current).length;

  async function confirm() {
    if (!confirming) return;
    try {
      if (confirming.kind === 'one') {
        await signOutOne.mutateAsync(confirming.device._id);
        notify(`Signed out ${deviceName(confirming.device)}`, 'success');
      } else {
        const { signedOut } = await signOutOthers.mutateAsync();
        notify(`Signed out of ${signedOut} other ${signedOut === 1 ? 'device' : 'devices'}`, 'success');
      }
    } catch (err) {
      notify(errorMessage(err, 'Could not sign the device out'), 'error');
    } finally {
      setConfirming(null);
    }
  }

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        These devices are signed in to your account. Sign out any you do not recognise: they will have to sign in again.
      </p>
      <ul
        aria-label="Signed-in devices"
        className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
      >
        {list.map((d) => (
          <DeviceRow key={d._id} device={d} onSignOut={() => setConfirming({ kind: 'one', device: d })} />
        ))}
      </ul>
      {others > 0 && (
        <Button variant="danger" className="self-start" disabled={busy} onClick={() => setConfirming({ kind: 'others', count: others })}>
          Sign out of all other devices
        </Button>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.kind === 'one' ? 'Sign out device' : 'Sign out other devices'}
        message={
          confirming?.kind === 'one'
            ? `Sign out ${deviceName(confirming.device)}${confirming.device.address ? ` (${confirming.device.address})` : ''}? It is signed out at once and needs the password to sign in again.`
            : `Sign out ${confirming?.count ?? 0} other ${confirming?.count === 1 ? 'device' : 'devices'}? This device stays signed in.`
        }
        confirmLabel="Sign out"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(null)}
      />
    </div>
  );
}
