import { connect } from 'node:net';

export interface RawAnswer {
  readonly status: number;
  /** Header names lower-cased; a repeated header's values joined with `, `. */
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * One HTTP/1.1 request written byte for byte (repeated headers, odd spacing, exact bodies survive,
 * which fetch would normalise), on its own connection.
 */
export async function rawRequest(origin: string, lines: readonly string[], body: string | Buffer = ''): Promise<RawAnswer> {
  const url = new URL(origin);
  const text = await new Promise<string>((resolveText, reject) => {
    // Written, not ended: a half-closed socket may be dropped before a slow answer; `connection: close` ends it.
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${lines.join('\r\n')}\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`);
      socket.write(body);
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('end', () => resolveText(data));
    socket.on('error', reject);
  });
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}
