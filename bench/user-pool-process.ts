/**
 * The Cognito stand-in (cognito-local) in a process of its own, for part 1 (user-pool.ts): the bench's spawnSync of
 * each measured process blocks the bench's own event loop, so an emulator running inside it could not answer.
 * Prints `{ endpoint, userPoolId }` as one line once it listens; stops when its stdin closes.
 */
import { startLocalCognito } from '#local/identity/cognito';

const pool = await startLocalCognito();
process.stdout.write(`${JSON.stringify({ endpoint: pool.endpoint, userPoolId: pool.userPoolId })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void pool.stop().then(() => process.exit(0)));
