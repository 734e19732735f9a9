/**
 * Outgoing mail: SMTP through nodemailer when `mail.smtp_url` is set, else each message
 * is written as an .eml file (0600, in a 0700 folder) to the spool folder, where an operator or a relay picks it up.
 */
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { makePrivateFolder, writePrivateFile } from '../core/private-files.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function createMailer(options: { smtpUrl?: string; from: string; spoolDir: string; newName: () => string }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      send: async (message) => {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    send: async (message) => {
      const info = await transport.sendMail({ from: options.from, ...message });
      makePrivateFolder(options.spoolDir);
      writePrivateFile(join(options.spoolDir, `${options.newName()}.eml`), info.message as Buffer);
    },
  };
}
