/**
 * `npm run logs -- --stage staging [--function createPet] [--since 15m] [--request-id <id>] [--filter <pattern>] [--follow]`:
 * a deployed stage's logs, one compact line per event (scripts/logs/command.ts).
 */
import { runOperatorCommand } from './aws-target';
import { logsCommand } from './logs/command';

runOperatorCommand((argv) => logsCommand(argv));
