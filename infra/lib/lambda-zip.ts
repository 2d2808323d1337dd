// Reads which machine the `bootstrap` binary inside a function zip is built
// for (the ELF header's e_machine), so synth can refuse a zip built for
// another architecture than the function declares. Zip format: PKWARE
// APPNOTE 4.3 (end of central directory, central and local file headers).
import * as fs from 'fs';
import * as zlib from 'zlib';
import { Architecture } from './config';

/** ELF e_machine values of the two Lambda architectures (System V ABI: EM_X86_64, EM_AARCH64). */
export const ELF_MACHINES: Record<number, Architecture> = { 62: 'x86_64', 183: 'arm64' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The first bytes of the zip entry `name`, or undefined when the zip has no such entry. */
export function zipEntryHead(zip: Buffer, name: string, bytes: number): Buffer | undefined {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error('corrupt zip central directory');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLen = zip.readUInt16LE(at + 28);
    const extraLen = zip.readUInt16LE(at + 30);
    const commentLen = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLen) === name) {
      if (zip.readUInt32LE(local) !== LOCAL) throw new Error('corrupt zip local header');
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return data.subarray(0, bytes);
      if (method === 8) return zlib.inflateRawSync(data).subarray(0, bytes);
      throw new Error(`zip entry ${name} uses compression method ${method}`);
    }
    at += 46 + nameLen + extraLen + commentLen;
  }
  return undefined;
}

/** The architecture of the zip's `bootstrap`; throws naming what is wrong when it is not a known ELF binary. */
export function zipArchitecture(file: string): Architecture {
  const head = zipEntryHead(fs.readFileSync(file), 'bootstrap', 20);
  if (!head) throw new Error(`${file} has no bootstrap entry`);
  if (head.length < 20 || head.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file}: bootstrap is not an ELF binary`);
  const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18);
  const arch = ELF_MACHINES[machine];
  if (!arch) throw new Error(`${file}: bootstrap is built for ELF machine ${machine}, not x86_64 or arm64`);
  return arch;
}
