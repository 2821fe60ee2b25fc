// Summary records framed as MindSpore writes them (length, masked CRC32C, Event, CRC), for tests
// that append to a run while the workbench follows it.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  return c >>> 0;
});

function maskedCrc(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  c = (c ^ 0xffffffff) >>> 0;
  return (((c >>> 15) | (c << 17)) + 0xa282ead8) >>> 0;
}

function field(tag: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag, body.length]), body]);
}

/** A framed Event{wall_time, step, summary{value{tag, scalar_value}}} (bodies < 128 bytes). */
export function scalarRecord(step: number, tag: string, value: number): Buffer {
  const scalar = Buffer.alloc(5);
  scalar[0] = 0x1d;
  scalar.writeFloatLE(value, 1);
  const summary = field(0x0a, Buffer.concat([field(0x0a, Buffer.from(tag)), scalar]));
  const wall = Buffer.alloc(9);
  wall[0] = 0x09;
  wall.writeDoubleLE(1.7e9 + step, 1);
  const payload = Buffer.concat([wall, Buffer.from([0x10, step]), field(0x2a, summary)]);
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(payload.length));
  const crc = (b: Buffer): Buffer => {
    const out = Buffer.alloc(4);
    out.writeUInt32LE(maskedCrc(b));
    return out;
  };
  return Buffer.concat([length, crc(length), payload, crc(payload)]);
}
