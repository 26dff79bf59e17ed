import { useTranslation } from 'react-i18next';
import { PageTitle } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { EmailSection } from '@/features/account-email/components/email-section';
import { PasskeyList } from '@/features/passkeys/components/passkey-list';
import { DeviceList } from '@/features/users/components/device-list';
import { LinkedAccounts } from '@/features/single-sign-on/components/linked-accounts';
import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section';

/** The account's sign-in and security page: its email address, two-factor sign-in, passkeys, linked single sign-on accounts, and the signed-in devices. */
export default function DevicesPage() {
  const { t } = useTranslation('app');
  const toast = useToast();
  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle>{t('devices.title')}</PageTitle>
      <EmailSection />
      <TwoFactorSection />
      <PasskeyList notify={(m, k) => toast.show(m, k)} />
      <LinkedAccounts notify={(m, k) => toast.show(m, k)} />
      <section aria-labelledby="devices-heading" className="mb-8 flex flex-col gap-4">
        <h2 id="devices-heading" className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">
          {t('devices.yourDevices')}
        </h2>
        <DeviceList notify={(m, k) => toast.show(m, k)} />
      </section>
    </div>
  );
}
