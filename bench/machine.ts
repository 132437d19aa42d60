import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** What the numbers were measured on: without it a table of milliseconds means little. */
export function describeMachine(): string {
  const cpuList = cpus();
  let model = cpuList[0]?.model ?? 'unknown CPU';
  try {
    model = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? model;
  } catch {
    // not Linux: os.cpus() already named it
  }
  return `${model.trim()}, ${cpuList.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version} (${process.platform}-${process.arch})`;
}
