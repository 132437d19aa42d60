/** `npm run logs -- --stage staging [--function createPet] [--since 15m] [--follow] …`: see scripts/logs/command.ts. */
import { runOperatorCommand } from './aws-target';
import { logsCommand } from './logs/command';

runOperatorCommand((argv) => logsCommand(argv));
