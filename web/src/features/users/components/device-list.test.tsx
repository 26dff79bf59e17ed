import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { DeviceList, deviceName } from './device-list';

const hour = 3600_000;
const device = (over: Record<string, unknown>) => ({
  _id: 'session0001',
  browser: 'Chrome 156',
  system: 'Linux',
  device: 'desktop',
  address: '203.0.113.10',
  createdAt: new Date(Date.now() - 48 * hour).toISOString(),
  lastActiveAt: new Date(Date.now() - 2 * hour).toISOString(),
  current: false,
  ...over,
});
/** A fake server holding the devices: it answers the list and the two sign-outs. */
function serve(devices: ReturnType<typeof device>[]) {
  let live = [...devices];
  return fakeApi(({ method, path }) => {
    if (method === 'GET') return live;
    if (path.endsWith('/users/sessions')) {
      const signedOut = live.filter((d) => !d.current).length;
      live = live.filter((d) => d.current);
      return { signedOut };
    }
    const id = path.split('/').pop();
    live = live.filter((d) => d._id !== id);
    return {};
  });
}

function renderList() {
  const notify = vi.fn();
  renderWithQueries(<DeviceList notify={notify} />);
  return notify;
}

describe('deviceName', () => {
  it('says as much as the user agent told', () => {
    expect(deviceName({ browser: 'Chrome 156', system: 'Linux' })).toBe('Chrome 156 on Linux');
    expect(deviceName({ browser: 'Unknown', system: 'iOS 18' })).toBe('Unknown browser on iOS 18');
    expect(deviceName({ browser: 'Firefox 135', system: 'Unknown' })).toBe('Firefox 135');
    expect(deviceName({ browser: 'Unknown', system: 'Unknown' })).toBe('Unknown device');
  });
});

describe('DeviceList', () => {
  const here = device({ _id: 'session0001', current: true });
  const phone = device({ _id: 'session0002', browser: 'Safari 18', system: 'iOS 18', device: 'mobile', address: null });

  it('lists each device with its address and times, the current one marked and without a sign-out button', async () => {
    serve([here, phone]);
    renderList();
    const rows = await screen.findAllByTestId('device');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Chrome 156 on Linux');
    expect(within(rows[0]!).getByText('This device')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('203.0.113.10');
    expect(rows[0]!.textContent).toContain('Active now');
    expect(within(rows[0]!).queryByRole('button')).toBeNull();
    expect(rows[1]!.textContent).toContain('Safari 18 on iOS 18');
    expect(rows[1]!.textContent).toContain('Address unknown');
    expect(rows[1]!.textContent).toContain('Active 2 hours ago');
    expect(within(rows[1]!).queryByText('This device')).toBeNull();
  });

  it('signs one device out after a confirmation, then shows the list without it', async () => {
    const calls = serve([here, phone]);
    const notify = renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);
    const dialog = screen.getByRole('dialog', { hidden: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out', hidden: true }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Signed out Safari 18 on iOS 18', 'success'));
    expect(calls).toContain('DELETE /api/v1/users/sessions/session0002');
    await waitFor(() => expect(screen.getAllByTestId('device')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Sign out of all other devices' })).toBeNull();
  });

  it('cancelling the confirmation signs nothing out', async () => {
    const calls = serve([here, phone]);
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out Safari 18 on iOS 18' }));
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true })).getByRole('button', { name: 'Cancel', hidden: true }));
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);
    expect(screen.getAllByTestId('device')).toHaveLength(2);
  });

  it('signs out every other device at once and says how many', async () => {
    const calls = serve([here, phone, device({ _id: 'session0003', browser: 'Firefox 135', system: 'Windows 10' })]);
    const notify = renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('Sign out 2 other devices?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out', hidden: true }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Signed out of 2 other devices', 'success'));
    expect(calls).toContain('DELETE /api/v1/users/sessions');
    await waitFor(() => expect(screen.getAllByTestId('device')).toHaveLength(1));
  });

  it("tells the server's refusal", async () => {
    fakeApi(({ method }) => (method === 'DELETE' ? answer(null, 403, 'The demo account cannot sign out other devices') : [here, phone]));
    const notify = renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }));
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true })).getByRole('button', { name: 'Sign out', hidden: true }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('The demo account cannot sign out other devices', 'error'));
  });
});
