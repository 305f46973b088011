#!/usr/bin/env python3
"""Decodes each PNG given (every chunk's CRC, the zlib stream, every
scanline's filter byte) and prints WIDTHxHEIGHT per file; exits 1 on the
first one that does not decode.  Truth for the screenshot tests, outside
the code that parsed them."""
import struct
import sys
import zlib

for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: no PNG signature')
    pos, idat, width = 8, b'', None
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            sys.exit(f'{path}: bad CRC in {kind}')
        if kind == b'IHDR':
            width, height, depth, colour = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
        if kind == b'IEND':
            break
    if pos != len(data) or width is None:
        sys.exit(f'{path}: bytes after IEND or no IHDR')
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    stride = 1 + width * channels * depth // 8
    raw = zlib.decompress(idat)
    if len(raw) != stride * height or any(raw[i * stride] > 4 for i in range(height)):
        sys.exit(f'{path}: pixel data does not match {width}x{height}')
    print(f'{width}x{height}')
