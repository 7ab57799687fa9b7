import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** A gzipped ustar archive of small files, as `npm pack` ships a package. */
export function tgz(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  for (const [path, text] of Object.entries(files)) {
    const content = Buffer.from(text);
    const block = Buffer.alloc(512);
    const field = (offset: number, length: number, value: string) => block.write(value, offset, length, 'ascii');
    const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
    block.write(path, 0, 100, 'utf8');
    octal(100, 8, 0o644);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, content.length);
    octal(136, 12, 0);
    field(148, 8, '        ');
    field(156, 1, '0');
    field(257, 6, 'ustar\0');
    field(263, 2, '00');
    let sum = 0;
    for (const byte of block) sum += byte;
    field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    parts.push(block, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}

/** A deflated zip; `content` may be a Buffer (a bomb is 100 MB of zeros, about 100 KB deflated). */
export function zip(files: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, content] of Object.entries(files)) {
    const name = Buffer.from(path, 'utf8');
    const raw = Buffer.from(content);
    const data = deflateRawSync(raw);
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
