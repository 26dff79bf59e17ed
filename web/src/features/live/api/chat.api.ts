import type { ChatBan, ChatDeleted, ChatHistory, ChatMessage, ChatReady, ChatViewers, LiveStatusEvent } from '@reelhouse/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { API_BASE, api } from '@/lib/api-client';

export const chatKeys = {
  history: (videoId: string) => ['live', 'chat', videoId] as const,
};

/** The chat keeps the newest messages in view; older ones drop off like the server's history. */
const KEPT_MESSAGES = 300;

export function useChatHistory(videoId: string) {
  return useQuery({
    queryKey: chatKeys.history(videoId),
    queryFn: ({ signal }) => api.get<ChatHistory>(`/live/${videoId}/chat`, undefined, signal),
    // The stream keeps it current from here on.
    staleTime: Infinity,
  });
}

export const sendChatMessage = (videoId: string, content: string) => api.post<ChatMessage>(`/live/${videoId}/chat`, { content });
export const deleteChatMessage = (videoId: string, messageId: string) => api.del(`/live/${videoId}/chat/${messageId}`);
export const banFromChat = (videoId: string, userId: string, seconds: number) => api.post<ChatBan>(`/live/${videoId}/chat/bans`, { userId, seconds });

/** Puts a message into the cached history once, whichever of the answer and the stream brings it first. */
export function addMessage(history: ChatHistory | undefined, message: ChatMessage): ChatHistory | undefined {
  if (!history || history.messages.some((m) => m._id === message._id)) return history;
  return { ...history, messages: [...history.messages, message].slice(-KEPT_MESSAGES) };
}

export function removeMessage(history: ChatHistory | undefined, id: string): ChatHistory | undefined {
  if (!history) return history;
  return { ...history, messages: history.messages.filter((m) => m._id !== id) };
}

export interface ChatStreamHandlers {
  onViewers?(viewers: number): void;
  onStatus?(status: LiveStatusEvent['status']): void;
}

/**
 * Follows a live's chat stream (which also counts this page as a viewer): new and deleted messages
 * go into the cached history, the viewer count and the live's status to the handlers. The browser
 * reconnects by itself after a drop.
 */
export function useChatStream(videoId: string, handlers: ChatStreamHandlers, enabled = true) {
  const qc = useQueryClient();
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    if (!enabled || !videoId || typeof EventSource === 'undefined') return;
    const key = chatKeys.history(videoId);
    const source = new EventSource(`${API_BASE}/live/${videoId}/chat/stream`, { withCredentials: true });
    const read = <T>(e: Event) => JSON.parse((e as MessageEvent<string>).data) as T;
    let opened = false;
    source.addEventListener('ready', (e) => {
      const ready = read<ChatReady>(e);
      latest.current.onViewers?.(ready.viewers);
      qc.setQueryData<ChatHistory>(key, (old) => (old ? { ...old, settings: ready.settings } : old));
      // After a reconnection, messages sent while the stream was away come back with the history.
      if (opened) void qc.invalidateQueries({ queryKey: key });
      opened = true;
    });
    source.addEventListener('message', (e) => {
      const message = read<ChatMessage>(e);
      qc.setQueryData<ChatHistory>(key, (old) => addMessage(old, message));
    });
    source.addEventListener('deleted', (e) => {
      const { _id } = read<ChatDeleted>(e);
      qc.setQueryData<ChatHistory>(key, (old) => removeMessage(old, _id));
    });
    source.addEventListener('viewers', (e) => latest.current.onViewers?.(read<ChatViewers>(e).viewers));
    source.addEventListener('status', (e) => {
      const { status } = read<LiveStatusEvent>(e);
      if (status === 'ended') qc.setQueryData<ChatHistory>(key, (old) => (old ? { ...old, settings: { ...old.settings, open: false } } : old));
      latest.current.onStatus?.(status);
    });
    return () => source.close();
  }, [videoId, enabled, qc]);
}
