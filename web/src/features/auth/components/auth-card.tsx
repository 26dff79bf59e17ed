import type { ReactNode } from 'react';
import { Logo } from '@/components/ui/icons';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto mt-4 w-full max-w-md rounded-2xl border border-neutral-200 bg-white p-6 shadow-sm sm:p-8 dark:border-neutral-800 dark:bg-neutral-900">
      <div className="mb-6 flex flex-col items-center gap-2">
        <Logo />
        <h1 className="text-2xl font-bold">{title}</h1>
      </div>
      {children}
    </div>
  );
}
