import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

/** /proc/net/tcp's hex address: IPv4 in little-endian byte order, IPv6 as four little-endian words. */
function decodeAddress(hex: string): string {
  if (hex.length === 8)
    return (hex.match(/../g) ?? [])
      .reverse()
      .map((byte) => parseInt(byte, 16))
      .join('.');
  const bytes = (hex.match(/.{8}/g) ?? []).flatMap((word) => (word.match(/../g) ?? []).reverse());
  const groups = Array.from({ length: 8 }, (_, index) => `${bytes[2 * index] ?? ''}${bytes[2 * index + 1] ?? ''}`);
  if (groups.slice(0, 5).every((group) => group === '0000') && groups[5] === 'ffff') {
    return `::ffff:${bytes
      .slice(12)
      .map((byte) => parseInt(byte, 16))
      .join('.')}`;
  }
  return groups.map((group) => parseInt(group, 16).toString(16)).join(':');
}

/** The local addresses with a socket listening on `port` (Linux: /proc/net/tcp and tcp6). */
export function listeningAddresses(port: number): string[] {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${portHex}`))
      .map((fields) => decodeAddress((fields[1] ?? '').split(':')[0] ?? '')),
  );
}

/** This machine's addresses other than loopback (IPv4), through which a neighbour would connect. */
export const externalAddresses = (): string[] =>
  Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info && !info.internal && info.family === 'IPv4' ? [info.address] : []));

/** What a TCP connection to host:port meets: `accepted`, `refused` (ECONNREFUSED), or another error's code. */
export function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, host);
    // A ceiling for a hang: a local connection is accepted or refused at once.
    socket.setTimeout(10_000, () => {
      socket.destroy();
      done('timed out');
    });
    socket.once('connect', () => {
      socket.destroy();
      done('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'refused' : (error.code ?? error.message)));
  });
}
