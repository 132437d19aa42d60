#!/usr/bin/env node
/**
 * Runs a project tool (`npm start`, `npm test`, …) with what it needs and nothing installed by hand:
 *   1. Node.js ≥ 22 — when the machine's Node is older, Node 24 is installed from the npm registry
 *      (package `node@24`) into `.tools/node24` once, and this script re-runs itself with it;
 *   2. the locked dependencies — `npm ci` when node_modules is missing or older than package-lock.json;
 *   3. then the tool from node_modules/.bin, with signals forwarded and its exit code passed on.
 * Dependency-free on purpose: it must run before anything is installed, on any Node ≥ 18.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_NODE_MAJOR = 22;
const NODE_PACKAGE = 'node@24';
const TOOLS_DIR = join(ROOT, '.tools', 'node24');
const NODE_24 = join(TOOLS_DIR, 'node_modules', '.bin', 'node');

/** @param {string} text */
const say = (text) => process.stderr.write(`[launch] ${text}\n`);

/**
 * @param {string} command
 * @param {readonly string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= MIN_NODE_MAJOR) return;
  if (!existsSync(NODE_24)) {
    say(`Node ${process.version} is older than ${MIN_NODE_MAJOR}: installing ${NODE_PACKAGE} from the npm registry into .tools/`);
    run('npm', [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      TOOLS_DIR,
      NODE_PACKAGE,
    ]);
  }
  // Re-run this script under Node 24, with it first on the PATH for every tool it starts.
  const env = { ...process.env, PATH: `${dirname(NODE_24)}${delimiter}${process.env.PATH ?? ''}` };
  const result = spawnSync(NODE_24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env });
  process.exit(result.status ?? 1);
}

function ensureDependencies() {
  // npm writes node_modules/.package-lock.json on every install: older than the lockfile means stale.
  const installed = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  say('installing the locked dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * @param {string} tool
 * @param {readonly string[]} args
 */
function exec(tool, args) {
  const bin = join(ROOT, 'node_modules', '.bin', tool);
  const child = spawn(existsSync(bin) ? bin : tool, args, { stdio: 'inherit', cwd: process.cwd() });
  // Ctrl-C reaches the whole process group; the tool decides how to stop, we wait for it.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  say('usage: node scripts/launch.mjs <tool> [args…]');
  process.exit(2);
}
ensureNode();
ensureDependencies();
exec(tool, args);
