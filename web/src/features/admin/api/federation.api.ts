import type { AdminUserPage, FederationBlock, FederationBlockList } from '@reelhouse/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The remote servers this site has blocked: served only on a site that federates. */
export function useFederationBlocks() {
  return useQuery({
    queryKey: ['admin', 'federation', 'blocks'],
    queryFn: ({ signal }) => api.get<FederationBlockList>('/admin/federation/blocks', undefined, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/**
 * A block names the admin who made it by account id alone: the site's admins, read once, give the
 * names to show. One made by an account that is no longer an admin finds no name here.
 */
export function useAdminNames() {
  return useQuery({
    queryKey: ['admin', 'users', 'admin-names'],
    queryFn: ({ signal }) => api.get<AdminUserPage>('/admin/users', { role: 'admin', pageSize: 100 }, signal),
    select: (page) => new Map(page.users.map((u) => [u._id, u.username])),
    staleTime: 0,
  });
}

// Blocks and unblocks are in the audit log too: the whole admin area is read again. A refusal reads
// it again as well, since a 409 or a 404 means another admin got there first.
export function useBlockServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => api.post<FederationBlock>('/admin/federation/blocks', { domain }),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useUnblockServer() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (domain: string) => api.del(`/admin/federation/blocks/${encodeURIComponent(domain)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: ['admin'] }),
  });
}
