/**
 * A private CA made at test time with the openssl command, and certificates it signs: a
 * server certificate for 127.0.0.1 and client certificates. EC keys, valid for a day.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertificateFiles {
  cert: string;
  key: string;
}

export interface TestPki {
  caCert: string;
  server: CertificateFiles;
  client(name: string): CertificateFiles;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export function makePki(dir: string): TestPki {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=loyaltyd test CA');
  let serial = 1;
  const signed = (name: string, extensions: string): CertificateFiles => {
    writeFileSync(join(dir, `${name}.ext`), `${extensions}\n`);
    openssl('req', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
    serial += 1;
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(serial),
      '-days',
      '1',
      '-out',
      `${name}.crt`,
      '-extfile',
      `${name}.ext`,
    );
    return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
  };
  return {
    caCert: join(dir, 'ca.crt'),
    server: signed('server', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth'),
    client: (name) => signed(name, 'extendedKeyUsage=clientAuth'),
  };
}
