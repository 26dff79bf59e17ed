import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';

export function RouteError() {
  const { t } = useTranslation('app');
  const error = useRouteError();
  const message = error instanceof Error ? error.message : t('routeError.message');
  return (
    <div role="alert" className="mx-auto max-w-lg p-10 text-center">
      <h1 className="mb-2 text-xl font-semibold">{t('routeError.title')}</h1>
      <p className="mb-6 text-neutral-500">{message}</p>
      <Link to="/" className="text-rose-600 underline">
        {t('routeError.goHome')}
      </Link>
    </div>
  );
}
