import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '@/test/fake-api';
import { PasskeyList } from './passkey-list';

const day = 24 * 3600_000;
const passkey = (over: Record<string, unknown>) => ({
  _id: 'passkey0001',
  name: 'Chrome on Linux',
  createdAt: new Date(Date.now() - 30 * day).toISOString(),
  lastUsedAt: null,
  ...over,
});
/** A fake server holding the passkeys: it answers the list and removals. */
function serve(passkeys: ReturnType<typeof passkey>[]) {
  let live = [...passkeys];
  return fakeApi(({ method, path }) => {
    if (method === 'GET') return live;
    live = live.filter((p) => p._id !== path.split('/').pop());
    return {};
  });
}

function renderList() {
  const notify = vi.fn();
  renderWithQueries(<PasskeyList notify={notify} />);
  return notify;
}

describe('PasskeyList', () => {
  it('lists the passkeys with when each was added and last used', async () => {
    serve([passkey({ _id: 'passkey0002', name: 'Work laptop', lastUsedAt: new Date(Date.now() - 3600_000).toISOString() }), passkey({})]);
    renderList();
    const items = await screen.findAllByTestId('passkey');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Work laptop');
    expect(items[0]!.textContent).toContain('Last used 1 hour ago');
    expect(items[1]!.textContent).toContain('Chrome on Linux');
    expect(items[1]!.textContent).toContain('Never used');
  });

  it('says when there are none', async () => {
    serve([]);
    renderList();
    expect(await screen.findByText('You have no passkeys yet.')).toBeTruthy();
  });

  it('removes one only after the confirmation, then says so', async () => {
    const calls = serve([passkey({})]);
    const notify = renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Chrome on Linux' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove passkey' });
    expect(dialog.textContent).toContain('Remove Chrome on Linux?');
    expect(calls.filter((c) => c.startsWith('DELETE'))).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Removed Chrome on Linux', 'success'));
    expect(calls).toContain('DELETE /api/v1/users/passkeys/passkey0001');
    expect(await screen.findByText('You have no passkeys yet.')).toBeTruthy();
  });
});
