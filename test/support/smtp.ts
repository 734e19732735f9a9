/**
 * A real SMTP receiver on 127.0.0.1 (port 0) for mail tests, built on `smtp-server`: it
 * accepts every message (or refuses every recipient, when told to) and keeps what it got.
 * It offers no STARTTLS and needs no AUTH, as a local relay in a store would.
 */
import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO). */
  to: string[];
  /** The message as it came over DATA: headers, blank line, body. */
  raw: string;
}

export interface SmtpReceiver {
  /** `smtp://127.0.0.1:PORT`, as `mail.smtp_url` takes it. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export interface SmtpReceiverOptions {
  /** Answer every RCPT TO with 550, as a relay refusing the domain would. */
  refuseRecipients?: boolean;
}

export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!options.refuseRecipients) return callback();
      const refusal = new Error('Relaying denied') as Error & { responseCode: number };
      refusal.responseCode = 550;
      return callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error: Error) => callback(error));
      stream.on('end', () => {
        // Recorded before the 250 reply, so a sender whose send resolved finds it here.
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An `smtp://` URL on 127.0.0.1 whose port is held by a listener that drops every connection
 * before a greeting, as a relay that is down or firewalled would. The port stays taken until
 * `close`, so no other test's server can be handed it meanwhile.
 */
export async function unreachableSmtp(): Promise<{ url: string; close(): Promise<void> }> {
  const listener = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  const { port } = listener.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => listener.close(() => resolve())),
  };
}

/** The value of a header of a raw message (unfolded), or undefined. */
export function mailHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The text body of a raw single-part message, its transfer encoding undone. */
export function mailText(raw: string): string {
  const separator = /\r?\n\r?\n/.exec(raw);
  const body = separator ? raw.slice(separator.index + separator[0].length) : '';
  const encoding = (mailHeader(raw, 'content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}
