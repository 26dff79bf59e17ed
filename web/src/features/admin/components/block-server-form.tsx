import { type FormEvent, type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useBlockServer } from '../api/federation.api';

/**
 * The host name of a server to block. The server is the judge of what a host name is; its refusal
 * is told under the field, in the interface's language, and focus goes back to the field so that
 * the message is read out with it.
 */
export function BlockServerForm({ fieldRef }: { fieldRef: RefObject<HTMLInputElement | null> }) {
  const { t } = useTranslation('admin');
  const block = useBlockServer();
  const toast = useToast();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string>();

  const refusal = (err: unknown, wanted: string) => {
    if (isApiError(err, 409)) return t('federation.alreadyBlocked', { domain: wanted });
    if (isApiError(err, 400)) return t('federation.notAHostName');
    return errorMessage(err, t('somethingWentWrong'));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // As the server names it, so that the messages name it the same way.
    const wanted = domain.trim().toLowerCase();
    if (!wanted) return;
    block.mutate(wanted, {
      onSuccess: (made) => {
        setDomain('');
        setError(undefined);
        toast.show(t('federation.blockedToast', { domain: made.domain }), 'success');
        fieldRef.current?.focus();
      },
      onError: (err) => {
        setError(refusal(err, wanted));
        fieldRef.current?.focus();
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex max-w-2xl flex-col gap-3 sm:flex-row sm:items-start">
      <TextField
        ref={fieldRef}
        className="flex-1"
        label={t('federation.domain')}
        hint={t('federation.domainHint')}
        value={domain}
        onChange={(e) => {
          setDomain(e.target.value);
          setError(undefined);
        }}
        error={error}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
      />
      {/* Level with the field, below its label, when they sit side by side. */}
      <Button type="submit" variant="danger" className="self-start sm:mt-6" disabled={block.isPending || !domain.trim()}>
        {t('federation.block')}
      </Button>
    </form>
  );
}
