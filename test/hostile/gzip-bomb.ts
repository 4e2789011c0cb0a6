// A gzip body of ~0.9 MiB that inflates to 900 MiB of spaces with no newline, built in
// milliseconds: after a full flush deflate starts afresh, so each MiB compresses to the same bytes.
import { constants, crc32, createDeflateRaw } from "node:zlib";

const MIB = 1024 * 1024;

/** One MiB of `byte`, deflated and ended by a full flush: a piece that can be repeated as is. */
async function deflatedMiB(byte: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => out.push(chunk));
  deflate.write(Buffer.alloc(MIB, byte));
  await new Promise<void>((resolve) => deflate.flush(constants.Z_FULL_FLUSH, () => resolve()));
  deflate.close();
  return Buffer.concat(out);
}

export async function gzipBomb(mebibytes = 900, byte = 0x20): Promise<Buffer> {
  const piece = await deflatedMiB(byte);
  const plain = Buffer.alloc(MIB, byte);
  let crc = 0;
  for (let i = 0; i < mebibytes; i++) crc = crc32(plain, crc);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  // A final fixed-Huffman block holding only its end code.
  const lastBlock = Buffer.from([0x03, 0x00]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mebibytes * MIB) % 2 ** 32, 4);
  return Buffer.concat([header, ...Array<Buffer>(mebibytes).fill(piece), lastBlock, trailer]);
}
