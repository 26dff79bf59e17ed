import { loadConfigOrExit } from './config.js';
import { openDatabase } from './db/client.js';
import { OperatorError, runOperatorCommand } from './modules/admin/operator-commands.js';

/** `npm run admin -- <verb>`: operator commands run against the configured database. */
async function main() {
  const config = loadConfigOrExit();
  const database = await openDatabase(config);
  try {
    await runOperatorCommand(database.db, process.argv.slice(2), (line) => console.log(line));
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  console.error(err instanceof OperatorError ? err.message : err instanceof Error ? err.message : err);
  process.exit(1);
});
