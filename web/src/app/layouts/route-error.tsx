import { Link, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <div role="alert" className="mx-auto max-w-lg p-10 text-center">
      <h1 className="mb-2 text-xl font-semibold">Something went wrong</h1>
      <p className="mb-6 text-neutral-500">{message}</p>
      <Link to="/" className="text-rose-600 underline">
        Go home
      </Link>
    </div>
  );
}
