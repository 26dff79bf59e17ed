import type { User } from '@reelhouse/contract';
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, type ReactNode } from 'react';
import { api, onSessionExpired } from './api-client';

export interface AuthState {
  user: User | null;
  isAuthenticated: boolean;
  loading: boolean;
  error: string | null;
  /** True until the start-up current-user check has begun and settled. */
  appLoading: boolean;
}

export type AuthAction =
  | { type: 'check-start' }
  | { type: 'login-start' }
  | { type: 'login-success'; user: User }
  | { type: 'login-failure'; error: string | null }
  | { type: 'set-user'; user: User }
  | { type: 'logout' };

export const initialAuthState: AuthState = {
  user: null,
  isAuthenticated: false,
  loading: false,
  error: null,
  appLoading: true,
};

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'check-start':
      return { ...state, loading: true };
    case 'login-start':
      return { ...state, loading: true, error: null };
    case 'login-success':
      return { user: action.user, isAuthenticated: true, loading: false, error: null, appLoading: false };
    case 'login-failure':
      return { user: null, isAuthenticated: false, loading: false, error: action.error, appLoading: false };
    case 'set-user':
      return { ...state, user: action.user };
    case 'logout':
      return { ...state, user: null, isAuthenticated: false, loading: false, error: null, appLoading: false };
  }
}

interface AuthContextValue extends AuthState {
  dispatch: (action: AuthAction) => void;
  /** Asks the server who is signed in. */
  reloadUser: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(authReducer, initialAuthState);

  const reloadUser = useCallback(async () => {
    dispatch({ type: 'check-start' });
    try {
      const user = await api.get<User>('/users/user/current');
      dispatch({ type: 'login-success', user });
    } catch {
      dispatch({ type: 'login-failure', error: null });
    }
  }, []);

  useEffect(() => {
    void reloadUser();
  }, [reloadUser]);

  useEffect(() => onSessionExpired(() => dispatch({ type: 'logout' })), []);

  const value = useMemo(() => ({ ...state, dispatch, reloadUser }), [state, reloadUser]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
