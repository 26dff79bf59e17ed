import type { Language } from '@reelhouse/contract';
import { forbidden, unauthorized } from '../../http/errors.js';
import type { UsersRepository } from './users.repository.js';

/** The language an account chose: its mails come in it (docs/decisions/0058), and the web client starts in it. */
export class AccountLanguageService {
  constructor(private readonly deps: { users: Pick<UsersRepository, 'findById' | 'update'>; now?: () => number }) {}

  /** Keeps the choice, or forgets it with null (mails then follow the request that asks for them). */
  async set(userId: string, language: Language | null): Promise<{ language: Language | null }> {
    const row = await this.deps.users.findById(userId);
    if (!row) throw unauthorized('Unauthorized request');
    // Many people share the demo account: one visitor's choice would greet the next in a language they did not pick.
    if (row.is_demo === 1) throw forbidden('The demo account cannot change its language');
    await this.deps.users.update(userId, { language, updated_at: (this.deps.now ?? Date.now)() });
    return { language };
  }
}
