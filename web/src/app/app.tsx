import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ToastProvider } from '@/components/ui/toast';
import { AccountLanguageSync } from '@/i18n/account-language';
import { AuthProvider } from '@/lib/auth';
import { UiProvider } from '@/lib/ui';
import { router } from './router';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <UiProvider>
        <ToastProvider>
          <AuthProvider>
            <AccountLanguageSync />
            <RouterProvider router={router} />
          </AuthProvider>
        </ToastProvider>
      </UiProvider>
    </QueryClientProvider>
  );
}
