#!/usr/bin/env node
/**
 * Runs a project tool (`npm start`, `npm test`, …) under Node ≥ 22 (else Node 24 from the npm registry, installed
 * once into `.tools/node24`), after `npm ci` when node_modules is older than package-lock.json, passing on signals.
 * Dependency-free: it runs before anything is installed, on any Node ≥ 18.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_NODE_MAJOR = 22;
const NODE_PACKAGE = 'node@24';
const TOOLS_DIR = join(ROOT, '.tools', 'node24');
const NODE_24 = join(TOOLS_DIR, 'node_modules', '.bin', 'node');

/** @param {string} text */
const say = (text) => process.stderr.write(`[launch] ${text}\n`);

/** @type {readonly NodeJS.Signals[]} */
const FORWARDED_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'];

/**
 * Runs a command to its end, passing on the signals sent to this process: IDE stop buttons and process managers
 * signal only this pid, and the command (a server holding a port) must stop with it.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null }>}
 */
function runForwardingSignals(command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options });
  // A terminal's Ctrl-C already reaches the child (same process group): passing it on would be a second Ctrl-C.
  const terminalSendsSigint = process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY;
  /** @param {NodeJS.Signals} signal */
  const forward = (signal) => {
    if (signal !== 'SIGINT' || !terminalSendsSigint) child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  return new Promise((ended) => {
    child.on('error', (error) => {
      say(`cannot run ${command}: ${error.message}`);
      process.exit(1);
    });
    child.on('exit', (code, signal) => {
      for (const forwarded of FORWARDED_SIGNALS) process.off(forwarded, forward);
      ended({ code, signal });
    });
  });
}

/**
 * Ends this process as a child ended: with its exit code, or killed by the same signal (so a shell stops on Ctrl-C).
 * @param {{ code: number | null, signal: NodeJS.Signals | null }} ended
 * @returns {never}
 */
function exitAs({ code, signal }) {
  if (signal) {
    process.kill(process.pid, signal);
    // Still here: this process ignores that signal (Node ignores SIGPIPE, for one); exit as a shell would report it.
    process.exit(128 + constants.signals[signal]);
  }
  process.exit(code ?? 1);
}

/**
 * @param {string} command
 * @param {readonly string[]} args
 */
async function run(command, args) {
  const ended = await runForwardingSignals(command, args, { cwd: ROOT });
  if (ended.code !== 0) exitAs(ended);
}

async function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= MIN_NODE_MAJOR) return;
  if (!existsSync(NODE_24)) {
    say(`Node ${process.version} is older than ${MIN_NODE_MAJOR}: installing ${NODE_PACKAGE} from the npm registry into .tools/`);
    const flags = ['--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error'];
    await run('npm', ['install', ...flags, '--prefix', TOOLS_DIR, NODE_PACKAGE]);
  }
  // Re-run this script under Node 24, with it first on the PATH for every tool it starts.
  const env = { ...process.env, PATH: `${dirname(NODE_24)}${delimiter}${process.env.PATH ?? ''}` };
  exitAs(await runForwardingSignals(NODE_24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { env }));
}

async function ensureDependencies() {
  // npm writes node_modules/.package-lock.json on every install: older than the lockfile means stale.
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  say('installing the locked dependencies (npm ci)');
  await run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * A tool exits with this code to be started again (`npm run dev`, local/dev/start.ts); told as `<code>:<this pid>` so
 * that only a direct child uses it.
 */
const RESTART_EXIT_CODE = 75;

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  say('usage: node scripts/launch.mjs <tool> [args…]');
  process.exit(2);
}
await ensureNode();
await ensureDependencies();
const bin = join(ROOT, 'node_modules', '.bin', tool);
const env = { ...process.env, PETSTORE_RESTART: `${RESTART_EXIT_CODE}:${process.pid}` };
for (;;) {
  const ended = await runForwardingSignals(existsSync(bin) ? bin : tool, args, { env });
  if (ended.code !== RESTART_EXIT_CODE) exitAs(ended);
}
