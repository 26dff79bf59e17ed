import type { FederationBlock } from '@reelhouse/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToastProvider } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { answer, type FakeCall, fakeApi, renderWithQueries } from '@/test/fake-api';
import { AdminFederation } from './admin-federation';

const BLOCKS = '/api/v1/admin/federation/blocks';
const ADMIN_ID = 'admin0000001';
const blockOf = (domain: string, blockedBy: string | null = ADMIN_ID): FederationBlock => ({ domain, blockedBy, createdAt: '2026-03-10T14:05:00.000Z' });

/**
 * A server holding `blocks`: it lists them, adds one (409 when it is there already) and removes one
 * (404 when it is not), as the real one does; `refuse` answers a POST instead, for the server's 400s.
 */
function site(blocks: FederationBlock[], refuse?: () => Response) {
  return fakeApi(({ method, path, body }: FakeCall) => {
    if (path === '/api/v1/admin/users') return { users: [{ _id: ADMIN_ID, username: 'ada' }], currentPage: 1, totalPages: 1 };
    if (method === 'GET' && path === BLOCKS) return { blocks };
    if (method === 'POST' && path === BLOCKS) {
      if (refuse) return refuse();
      const { domain } = body as { domain: string };
      if (blocks.some((b) => b.domain === domain)) return answer(null, 409, 'This domain is already blocked');
      const made = blockOf(domain);
      blocks.unshift(made);
      return answer(made, 201);
    }
    if (method === 'DELETE' && path.startsWith(`${BLOCKS}/`)) {
      const domain = decodeURIComponent(path.slice(BLOCKS.length + 1));
      const at = blocks.findIndex((b) => b.domain === domain);
      if (at < 0) return answer(null, 404, 'Blocked domain not found');
      blocks.splice(at, 1);
      return {};
    }
    return answer(null, 404, `Route ${method} ${path} not found`);
  });
}

const show = () =>
  renderWithQueries(
    <ToastProvider>
      <AdminFederation />
    </ToastProvider>,
  );

const field = () => screen.getByRole('textbox', { name: 'Server to block' });
const block = (domain: string) => {
  fireEvent.change(field(), { target: { value: domain } });
  fireEvent.click(screen.getByRole('button', { name: 'Block' }));
};
/** The text a field's aria-describedby points at. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' | ');

describe('AdminFederation', () => {
  it('lists each blocked server with who blocked it and when, and says what a block does', async () => {
    site([blockOf('spam.example.net'), blockOf('noise.example', null)]);
    show();
    const table = await screen.findByRole('table', { name: 'Blocked servers' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['Server', 'Blocked by', 'Blocked on', ''],
      ['spam.example.net', '@ada', formatDateTime('2026-03-10T14:05:00.000Z'), 'Unblock'],
      ['noise.example', 'A deleted account', formatDateTime('2026-03-10T14:05:00.000Z'), 'Unblock'],
    ]);
    expect(within(rows[1]!).getByRole('button', { name: 'Unblock spam.example.net' })).toBeTruthy();
    expect(screen.getByText(/nothing from it comes in, nothing goes to it/)).toBeTruthy();
    expect(description(field())).toBe('e.g. video.example.com; its subdomains are blocked too');
  });

  it('says so when no server is blocked', async () => {
    site([]);
    show();
    expect(await screen.findByText('No server is blocked.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('blocks a server by its host name as the server names it, then reads the list again', async () => {
    const calls = site([]);
    show();
    await screen.findByText('No server is blocked.');
    block('  Spam.Example.NET ');
    const row = await screen.findByRole('row', { name: /spam\.example\.net/ });
    expect(row.textContent).toContain('@ada');
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([`POST ${BLOCKS}`]);
    expect(calls.filter((c) => c === `GET ${BLOCKS}`)).toHaveLength(2);
    expect(await screen.findByText('spam.example.net is blocked')).toBeTruthy();
    expect((field() as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(field());
  });

  it('tells under the field that a server is blocked already (409), and takes focus there', async () => {
    site([blockOf('spam.example.net')]);
    show();
    await screen.findByRole('table', { name: 'Blocked servers' });
    block('spam.example.net');
    await waitFor(() => expect(field().getAttribute('aria-invalid')).toBe('true'));
    expect(description(field())).toBe('spam.example.net is already blocked | e.g. video.example.com; its subdomains are blocked too');
    expect(document.activeElement).toBe(field());
    // Typing again clears it.
    fireEvent.change(field(), { target: { value: 'other.example' } });
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('tells under the field what a host name is when the server refuses one (400)', async () => {
    const calls = site([], () => answer({ errors: [{ path: 'domain', message: 'domain must be a host name such as video.example.com' }] }, 400, 'x'));
    show();
    await screen.findByText('No server is blocked.');
    block('https://video.example.com/watch');
    await waitFor(() => expect(field().getAttribute('aria-invalid')).toBe('true'));
    expect(description(field())).toMatch(/^Enter a server's host name, such as video\.example\.com, without https:\/\/ or a path \| /);
    expect(calls).toContain(`POST ${BLOCKS}`);
    expect(screen.getByText('No server is blocked.')).toBeTruthy();
  });

  it('unblocks only after the confirmation, then shows the list without it and gives focus to the field', async () => {
    const calls = site([blockOf('spam.example.net')]);
    show();
    await screen.findByRole('table', { name: 'Blocked servers' });
    fireEvent.click(screen.getByRole('button', { name: 'Unblock spam.example.net' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog.textContent).toContain('Unblock spam.example.net?');
    expect(dialog.textContent).toContain('The followers and content the block removed do not come back.');
    expect(calls.some((c) => c.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unblock', hidden: true }));
    expect(await screen.findByText('No server is blocked.')).toBeTruthy();
    expect(calls).toContain(`DELETE ${BLOCKS}/spam.example.net`);
    expect(await screen.findByText('spam.example.net is unblocked')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(field()));
  });

  it('tells when another admin unblocked it first (404), and shows the list as it is now', async () => {
    const blocks = [blockOf('spam.example.net')];
    site(blocks);
    show();
    await screen.findByRole('table', { name: 'Blocked servers' });
    fireEvent.click(screen.getByRole('button', { name: 'Unblock spam.example.net' }));
    blocks.length = 0;
    fireEvent.click(within(screen.getByRole('dialog', { hidden: true })).getByRole('button', { name: 'Unblock', hidden: true }));
    expect(await screen.findByText('spam.example.net is not blocked')).toBeTruthy();
    expect(await screen.findByText('No server is blocked.')).toBeTruthy();
  });
});
