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
  /**
   * Where a guarded page sends the user right after they signed out on purpose (logout, account
   * deletion): home rather than /login. Cleared once that page is reached.
   */
  exitTo: string | null;
}

export type AuthAction =
  | { type: 'check-start' }
  | { type: 'login-start' }
  | { type: 'login-success'; user: User }
  | { type: 'login-failure'; error: string | null }
  | { type: 'set-user'; user: User }
  | { type: 'logout'; exitTo?: string }
  | { type: 'exit-reached' };

export const initialAuthState: AuthState = {
  user: null,
  isAuthenticated: false,
  loading: false,
  error: null,
  appLoading: true,
  exitTo: null,
};

export function authReducer(state: AuthState, action: AuthAction): AuthState {
  switch (action.type) {
    case 'check-start':
      return { ...state, loading: true };
    case 'login-start':
      return { ...state, loading: true, error: null };
    case 'login-success':
      return { user: action.user, isAuthenticated: true, loading: false, error: null, appLoading: false, exitTo: null };
    case 'login-failure':
      return { ...state, user: null, isAuthenticated: false, loading: false, error: action.error, appLoading: false };
    case 'set-user':
      return { ...state, user: action.user };
    case 'logout':
      return {
        user: null,
        isAuthenticated: false,
        loading: false,
        error: null,
        appLoading: false,
        exitTo: action.exitTo ?? state.exitTo,
      };
    case 'exit-reached':
      return state.exitTo === null ? state : { ...state, exitTo: null };
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
