import { PageTitle } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { PasskeyList } from '@/features/passkeys/components/passkey-list';
import { DeviceList } from '@/features/users/components/device-list';
import { TwoFactorSection } from '@/features/two-factor/components/two-factor-section';

export default function DevicesPage() {
  const toast = useToast();
  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle>Your devices</PageTitle>
      <TwoFactorSection />
      <PasskeyList notify={(m, k) => toast.show(m, k)} />
      <DeviceList notify={(m, k) => toast.show(m, k)} />
    </div>
  );
}
