import pino from 'pino';
import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/client.js';
import { backupBeforeMigrating } from './db/pre-migrate-backup.js';
import { createLogger } from './logger.js';
import { OperatorAccountsRepository } from './modules/admin/operator-accounts.repository.js';
import { OperatorCommands, OperatorError } from './modules/admin/operator-commands.js';
import { SessionsRepository } from './modules/users/sessions.repository.js';
import { Passwords } from './modules/users/passwords.js';
import { UsersRepository } from './modules/users/users.repository.js';

/** `npm run admin -- <verb>`: operator commands run against the configured database. */
async function main() {
  const config = loadConfigOrExit();
  // The command's own output is standard output; a backup taken before migrating is logged apart.
  const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: true }));
  const database = await openDatabase(config, { beforeMigrating: backupBeforeMigrating(config, logger) });
  try {
    const { db } = database;
    const commands = new OperatorCommands({
      accounts: new OperatorAccountsRepository(db),
      users: new UsersRepository(db),
      sessions: new SessionsRepository(db),
      passwords: new Passwords(config.passwordCost),
    });
    await commands.run(process.argv.slice(2), (line) => console.log(line));
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof OperatorError ? err.message : err instanceof Error ? err.message : err);
  process.exit(1);
});
