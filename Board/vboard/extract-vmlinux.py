#!/usr/bin/env python3
"""Extract the uncompressed ELF kernel (vmlinux) from a bzImage: find the xz stream after the
setup code and decompress it. QEMU boots the ELF through its PVH entry, about twice as fast under
TCG as decompressing the bzImage in the guest."""
import lzma, sys

src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
magic = b"\xfd7zXZ\x00"
start = 0
while True:
    i = data.find(magic, start)
    if i < 0:
        sys.exit(f"{src}: no xz stream found (is the kernel compressed with another method?)")
    try:
        d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
        out = d.decompress(data[i:])
    except lzma.LZMAError:
        start = i + 1
        continue
    if out[:4] == b"\x7fELF":
        open(dst, "wb").write(out)
        print(f"vmlinux: {len(out) // 1024} KiB from offset {i}")
        break
    start = i + 1
