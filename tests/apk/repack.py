#!/usr/bin/env python3
"""repack.py [--utf8-manifest] [--zip64] [--comment N] IN.apk OUT.apk: copy
an APK, changing how it is stored:

  --utf8-manifest  re-encode AndroidManifest.xml's string pool from UTF-16 to
                   UTF-8, the way aapt2 writes manifests (Debian's aapt only
                   writes UTF-16 ones)
  --zip64          write zip64 records everywhere (central directory extra
                   fields, zip64 end record and locator), as for APKs > 4 GiB
  --comment N      add an N-byte archive comment after the end record
  --asset-mb N     add an N MiB stored asset (assets/data.bin) after the
                   manifest, as in a game: the bytes an APK reader must skip
"""
import argparse
import struct
import sys
import zipfile


def read_pool_utf16(pool):
    _, hsize, size, count, styles, flags, sstart, _ = struct.unpack_from('<HHIIIIII', pool)
    assert styles == 0 and not flags & 0x100, 'expected a UTF-16 pool without styles'
    out = []
    for i in range(count):
        off = sstart + struct.unpack_from('<I', pool, hsize + 4 * i)[0]
        n = struct.unpack_from('<H', pool, off)[0]
        off += 2
        if n & 0x8000:
            n = ((n & 0x7fff) << 16) | struct.unpack_from('<H', pool, off)[0]
            off += 2
        out.append(pool[off:off + 2 * n].decode('utf-16-le', 'surrogatepass'))
    return flags, out


def length(n):
    return bytes([0x80 | (n >> 8), n & 0xff]) if n > 0x7f else bytes([n])


def write_pool_utf8(flags, strings):
    data = b''
    offsets = []
    for s in strings:
        offsets.append(len(data))
        b = s.encode('utf-8', 'surrogatepass')
        data += length(len(s.encode('utf-16-le', 'surrogatepass')) // 2) + length(len(b)) + b + b'\0'
    data += b'\0' * (-len(data) % 4)
    sstart = 28 + 4 * len(strings)
    size = sstart + len(data)
    head = struct.pack('<HHIIIIII', 1, 28, size, len(strings), 0, flags | 0x100, sstart, 0)
    return head + b''.join(struct.pack('<I', o) for o in offsets) + data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--utf8-manifest', action='store_true')
    ap.add_argument('--zip64', action='store_true')
    ap.add_argument('--comment', type=int, default=0)
    ap.add_argument('--asset-mb', type=int, default=0)
    ap.add_argument('src')
    ap.add_argument('dst')
    args = ap.parse_args()
    if args.zip64:
        # zipfile switches to zip64 records past these limits.
        zipfile.ZIP64_LIMIT = 0
        zipfile.ZIP_FILECOUNT_LIMIT = 0
    with zipfile.ZipFile(args.src) as zin, zipfile.ZipFile(args.dst, 'w') as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == 'AndroidManifest.xml' and args.utf8_manifest:
                hsize = struct.unpack_from('<H', data, 2)[0]
                pool_size = struct.unpack_from('<I', data, hsize + 4)[0]
                flags, strings = read_pool_utf16(data[hsize:hsize + pool_size])
                pool = write_pool_utf8(flags, strings)
                data = data[:hsize] + pool + data[hsize + pool_size:]
                data = data[:4] + struct.pack('<I', len(data)) + data[8:]
            zout.writestr(info, data, compress_type=info.compress_type)
            if info.filename == 'AndroidManifest.xml' and args.asset_mb:
                with zout.open(zipfile.ZipInfo('assets/data.bin', (1980, 1, 1, 0, 0, 0)), 'w') as f:
                    block = bytes((i * 131 + 7) % 256 for i in range(1 << 20))
                    for _ in range(args.asset_mb):
                        f.write(block)
        zout.comment = bytes((i * 7 + 3) % 256 for i in range(args.comment))


main()
