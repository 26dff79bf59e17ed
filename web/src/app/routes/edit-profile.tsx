import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageTitle } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { ViewingPreferencesForm } from '@/features/player/viewing-preferences-form';
import { EditProfileForm } from '@/features/users/components/edit-profile-form';
import { LanguageSelect } from '@/i18n/language-select';
import { useAuth } from '@/lib/auth';

export default function EditProfilePage() {
  const { t } = useTranslation('app');
  const { user, dispatch } = useAuth();
  const toast = useToast();
  const navigate = useNavigate();
  const qc = useQueryClient();
  if (!user) return null;
  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle>{t('editProfile.title')}</PageTitle>
      <section className="mb-6 max-w-xs">
        <LanguageSelect />
      </section>
      <section className="mb-6">
        <ViewingPreferencesForm />
      </section>
      <EditProfileForm
        user={user}
        notify={(m, k) => toast.show(m, k)}
        onUserChange={(u) => {
          dispatch({ type: 'set-user', user: u });
          void qc.invalidateQueries();
          if (u.username !== user.username) navigate(`/${u.username}/edit-profile`, { replace: true });
        }}
        onDeleted={async () => {
          // The guarded page then sends the user home rather than to /login.
          dispatch({ type: 'logout', exitTo: '/' });
          qc.clear();
          toast.success(t('editProfile.accountDeleted'));
          await navigate('/', { replace: true });
        }}
      />
    </div>
  );
}
