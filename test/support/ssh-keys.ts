/**
 * SSH public keys for the tests: fixed vectors made by ssh-keygen, with the MD5 fingerprint
 * `ssh-keygen -E md5 -lf` printed for them, and fresh ed25519 keys (each test its own, so no two
 * tests collide on a fingerprint).
 */
import { generateKeyPairSync } from 'node:crypto';

export const KEY_VECTORS = {
  ed25519: {
    key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPnAsHu77duTOu+kHFWLnYGiKrOs+j6jawGptqZ0ltyq vector@svc',
    fingerprint: 'ef:e5:df:0a:4a:d2:bb:40:2c:1c:f7:a8:a9:9e:da:49',
  },
  rsa: {
    key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDAYckByK9GD1P5oyNSK2tYtG356P6IDDwB736EH2SE03f+kjoxc1q3VbIAltZpcbkPGE+Aj4r+P3no+88vs0kKEhSXafo6ahZ2FKUgGjcbpfhQ8PTvXgJiv7ERA2XaWPC/VbtnJfBb5RUxKWDPzaBtvb+Zonu6OflBEVcpgZEdxwnjIMmXiKc8MaBDQDarHxCJ7k6Mbr+GQ/Kt+pMNbBOHxHE5MUa0rqwZypR8WRT5sOqniQ0+nD/NZWRTrdsxQuaEPe+/9ws8+4SJHzLXAbBuZNSVZWzWQMOyzL6aVYYgLLtLIKM47KVTugywO+APhBSEaEVEJ6un/R8oOIvdUp3X rsa@svc',
    fingerprint: '0b:67:04:da:d2:1a:f8:64:3c:71:05:1b:30:7b:4b:46',
  },
  ecdsa384: {
    key: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBGeB8V1huyZ06X1S/TT6pHU5YTm2r6fettTarfjQZaNYWoTk6XmsnTfo92umCGbtUIxvudPecADVcaBjXd7X516113XVWbzuFk2Kc96bp9EE3aEMptEBV5LCTXMrbU2jqA== ec@svc',
    fingerprint: 'bc:fa:2b:3e:05:9e:19:3f:ae:f5:e6:03:dc:0e:da:49',
  },
} as const;

/** The SSH wire encoding of a string or byte field: a 32-bit length, then the bytes. */
export function sshString(data: string | Buffer): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A new ed25519 public key in OpenSSH form. */
export function freshEd25519(comment = 'test@svc'): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const body = Buffer.concat([sshString('ssh-ed25519'), sshString(raw)]);
  return `ssh-ed25519 ${body.toString('base64')} ${comment}`;
}
