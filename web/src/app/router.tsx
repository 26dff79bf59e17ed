import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth, SignedOutOnly } from './guards';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './layouts/route-error';
import HomePage from './routes/home';

// Pages other than Home load on demand so that the home route's first download stays small.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({
  Component: (await load()).default,
});
type AdminModule = typeof import('./routes/admin');
const admin = (pick: (m: AdminModule) => React.ComponentType) => async () => ({ Component: pick(await import('./routes/admin')) });

export const routes: RouteObject[] = [
  // The embed page other sites frame: the player alone, outside the site's layout.
  { path: 'embed/:videoId', lazy: page(() => import('./routes/embed')), errorElement: <RouteError /> },
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <div className="min-h-screen" />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'video/:videoId', lazy: page(() => import('./routes/video')) },
      {
        element: <SignedOutOnly />,
        children: [
          { path: 'login', lazy: page(() => import('./routes/login')) },
          { path: 'signup', lazy: page(() => import('./routes/signup')) },
          { path: 'demo-login', lazy: page(() => import('./routes/demo-login')) },
          { path: 'forgot-password', lazy: page(() => import('./routes/forgot-password')) },
          { path: 'reset-password', lazy: page(() => import('./routes/reset-password')) },
        ],
      },
      { path: 'verify-email', lazy: page(() => import('./routes/verify-email')) },
      { path: 'channel/:channelName', lazy: page(() => import('./routes/channel')) },
      { path: 'channel/:channelName/videos', lazy: page(() => import('./routes/channel-videos')) },
      { path: 'channel/:channelName/playlists', lazy: page(() => import('./routes/channel-playlists')) },
      {
        element: <RequireAuth />,
        children: [
          { path: 'playlist/:playlistId', lazy: page(() => import('./routes/playlist')) },
          {
            path: 'admin',
            lazy: page(() => import('./routes/admin')),
            children: [
              { index: true, lazy: admin((m) => m.AdminIndex) },
              { path: 'overview', lazy: admin((m) => m.OverviewPage) },
              { path: 'reports', lazy: admin((m) => m.ReportsPage) },
              { path: 'users', lazy: admin((m) => m.UsersPage) },
              { path: 'videos', lazy: admin((m) => m.VideosPage) },
              { path: 'jobs', lazy: admin((m) => m.JobsPage) },
              { path: 'backups', lazy: admin((m) => m.BackupsPage) },
              { path: 'federation', lazy: admin((m) => m.FederationPage) },
              { path: 'settings', lazy: admin((m) => m.SettingsPage) },
              { path: 'audit-log', lazy: admin((m) => m.AuditLogPage) },
            ],
          },
          {
            path: ':username',
            lazy: page(() => import('./routes/profile-layout')),
            children: [
              { index: true, lazy: page(() => import('./routes/profile')) },
              { path: 'add-video', lazy: page(() => import('./routes/add-video')) },
              { path: 'edit-profile', lazy: page(() => import('./routes/edit-profile')) },
              { path: 'change-password', lazy: page(() => import('./routes/change-password')) },
              { path: 'devices', lazy: page(() => import('./routes/devices')) },
              { path: 'playlists', lazy: page(() => import('./routes/my-playlists')) },
              { path: 'liked-videos', lazy: page(() => import('./routes/liked-videos')) },
              { path: 'watch-history', lazy: page(() => import('./routes/watch-history')) },
              { path: 'studio', lazy: page(() => import('./routes/studio')) },
              { path: 'studio/publish/:videoId', lazy: page(() => import('./routes/publish-live')) },
              { path: 'studio/live', lazy: page(() => import('./routes/go-live')) },
            ],
          },
        ],
      },
      { path: '*', element: <HomePage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
