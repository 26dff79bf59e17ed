import type { ChatMessage } from '@reelhouse/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { ChatPanel, type ChatViewer } from './chat-panel';

const VIDEO = 'vid0000001';
const OWNER = { _id: 'own0000001', username: 'host', fullName: 'The Host', avatar: { url: '/h.png' } };
const ANA = { _id: 'ana0000001', username: 'ana', fullName: 'Ana', avatar: { url: '/a.png' } };
const BO = { _id: 'bob0000001', username: 'bo', fullName: 'Bo', avatar: { url: '/b.png' } };

const msg = (id: string, author: ChatMessage['author'], content: string): ChatMessage => ({
  _id: id,
  videoId: VIDEO,
  content,
  createdAt: '2026-12-01T18:00:00.000Z',
  author,
});

/** The browser's EventSource, standing in for the server's stream: the test sends the events. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readonly url: string;
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>();
  closed = false;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

function serve(messages: ChatMessage[], onPost?: (content: string) => Response | ChatMessage) {
  return fakeApi(({ method, path, body }) => {
    if (method === 'GET' && path === `/api/v1/live/${VIDEO}/chat`) return { messages, settings: { slowModeSeconds: 0, open: true } };
    if (method === 'POST' && path === `/api/v1/live/${VIDEO}/chat`) return onPost?.((body as { content: string }).content) ?? answer(null, 500, 'unexpected');
    if (method === 'DELETE') return null;
    if (method === 'POST' && path.endsWith('/chat/bans')) return { videoId: VIDEO, userId: BO._id, until: new Date().toISOString() };
    return answer(null, 404, 'Not found');
  });
}

function show(viewer: ChatViewer | null, extra: { onViewers?: (n: number) => void; notify?: () => void } = {}) {
  return renderWithQueries(
    <MemoryRouter>
      <ChatPanel videoId={VIDEO} channelOwnerId={OWNER._id} viewer={viewer} notify={extra.notify ?? (() => {})} onViewers={extra.onViewers} />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  FakeEventSource.last = null;
  vi.stubGlobal('EventSource', FakeEventSource);
});

describe('ChatPanel', () => {
  it('sends a message and shows it, with a counter, the send button disabled while blank', async () => {
    const sent: string[] = [];
    serve([msg('m1', BO, 'Hello all')], (content) => {
      sent.push(content);
      return msg('m2', ANA, content);
    });
    show({ _id: ANA._id, role: 'user' });
    await screen.findByText('Hello all');
    const input = screen.getByRole('textbox', { name: 'Chat message' });
    const sendButton = screen.getByRole('button', { name: 'Send' });
    expect(input.getAttribute('maxlength')).toBe('200');
    expect((sendButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '   ' } });
    expect((sendButton as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: ' Great show ' } });
    expect(screen.getByText('12/200')).toBeTruthy();
    expect((sendButton as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(sendButton);
    await screen.findByText('Great show');
    expect(sent).toEqual(['Great show']);
    expect((input as HTMLInputElement).value).toBe('');
  });

  it("shows the server's refusal inline and keeps the text", async () => {
    serve([], () => answer(null, 429, 'Slow mode is on: wait 8 s before your next message'));
    show({ _id: ANA._id, role: 'user' });
    const input = await screen.findByRole('textbox', { name: 'Chat message' });
    fireEvent.change(input, { target: { value: 'Again' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Slow mode is on: wait 8 s before your next message');
    expect((input as HTMLInputElement).value).toBe('Again');
  });

  it('asks signed-out viewers to sign in instead of a form', async () => {
    serve([msg('m1', BO, 'Hello all')]);
    show(null);
    await screen.findByText('Hello all');
    expect(screen.getByRole('link', { name: 'Sign in to chat' }).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Actions for/ })).toBeNull();
  });

  it('lets viewers delete their own messages only', async () => {
    const calls = serve([msg('m1', BO, 'From Bo'), msg('m2', ANA, 'From Ana')]);
    show({ _id: ANA._id, role: 'user' });
    await screen.findByText('From Ana');
    expect(screen.queryByRole('button', { name: 'Actions for the message from Bo' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the message from Ana' }));
    expect(screen.queryByRole('button', { name: 'Ban for 5 minutes' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('From Ana')).toBeNull());
    expect(calls).toContain(`DELETE /api/v1/live/${VIDEO}/chat/m2`);
  });

  it("gives the channel owner and staff deletion of anyone's message and bans of others", async () => {
    const calls = serve([msg('m1', BO, 'From Bo'), msg('m2', OWNER, 'From the host')]);
    const notify = vi.fn();
    show({ _id: OWNER._id, role: 'user' }, { notify });
    await screen.findByText('From Bo');
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the message from Bo' }));
    const row = screen.getByText('From Bo').closest('li')!;
    expect(within(row).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Ban for 1 day' })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Ban for 5 minutes' }));
    await waitFor(() => expect(calls).toContain(`POST /api/v1/live/${VIDEO}/chat/bans`));
    await waitFor(() => expect(notify).toHaveBeenCalledWith(expect.stringMatching(/^Bo cannot chat until /), 'success'));
    // The owner is never offered a ban of themselves.
    fireEvent.click(screen.getByRole('button', { name: 'Actions for the message from The Host' }));
    const own = screen.getByText('From the host').closest('li')!;
    expect(within(own).queryByRole('button', { name: 'Ban for 5 minutes' })).toBeNull();
  });

  it('gives site moderators and admins the same rights in any chat', async () => {
    serve([msg('m1', BO, 'From Bo')]);
    show({ _id: 'mod0000001', role: 'moderator' });
    fireEvent.click(await screen.findByRole('button', { name: 'Actions for the message from Bo' }));
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ban for 5 minutes' })).toBeTruthy();
  });

  it('shows a message arriving on the stream, drops a deleted one, and passes on the viewer count', async () => {
    serve([msg('m1', BO, 'First')]);
    const onViewers = vi.fn();
    show(null, { onViewers });
    await screen.findByText('First');
    const stream = FakeEventSource.last!;
    expect(stream.url).toBe(`/api/v1/live/${VIDEO}/chat/stream`);
    act(() => {
      stream.emit('ready', { viewers: 1, settings: { slowModeSeconds: 0, open: true } });
      stream.emit('message', msg('m2', ANA, 'Just arrived'));
      stream.emit('viewers', { viewers: 2 });
    });
    // The query cache tells its readers on the next tick.
    await screen.findByText('Just arrived');
    expect(screen.getByRole('log').getAttribute('aria-live')).toBe('polite');
    expect(onViewers.mock.calls.map((c) => c[0])).toEqual([1, 2]);
    act(() => stream.emit('deleted', { _id: 'm1' }));
    await waitFor(() => expect(screen.queryByText('First')).toBeNull());
    act(() => stream.emit('status', { status: 'ended' }));
    await screen.findByText('The live has ended; the chat is read-only');
  });

  it('offers "New messages" when the reader has scrolled up, and follows the newest otherwise', async () => {
    serve([msg('m1', BO, 'First')]);
    show(null);
    await screen.findByText('First');
    const log = screen.getByRole('log');
    // jsdom has no layout: give the list a height and a scroll position by hand.
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 1000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 300 });
    log.scrollTop = 200;
    fireEvent.scroll(log);
    act(() => FakeEventSource.last!.emit('message', msg('m2', ANA, 'While away')));
    const jump = await screen.findByRole('button', { name: 'New messages' });
    fireEvent.click(jump);
    expect(log.scrollTop).toBe(1000);
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
    act(() => FakeEventSource.last!.emit('message', msg('m3', ANA, 'At the bottom')));
    await screen.findByText('At the bottom');
    expect(screen.queryByRole('button', { name: 'New messages' })).toBeNull();
  });
});
