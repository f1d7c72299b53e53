#!/usr/bin/env python3
"""Writes the starting inputs of each fuzz target into Corpus/TARGET/seed-*.

The fuzzer adds what it finds interesting next to them; run.sh keeps those too. Needs fonttools
(pip install fonttools) for the subset fonts. Run from anywhere: python3 Tests/Fuzz/make-seeds.py
"""
import os, struct, zlib, random, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

def put(target, name, data):
    folder = os.path.join(here, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# Input scripts.
put("script", "touch", '{"t":0,"touch":"down","id":0,"x":640,"y":600}\n{"t":16,"touch":"move","id":0,"x":640,"y":500}\n'
    '{"t":32,"touch":"up","id":0}\n{"t":1500,"screenshot":"after-flick"}\n{"t":1500,"state":"s1"}\n')
put("script", "keys", '{"t":200,"key":"PageDown"}\n{"t":300,"wheel":{"dx":0,"dy":-120},"x":640,"y":400}\n'
    '{"t":400,"scroll":{"dx":0,"dy":14},"x":640,"y":400}\n{"t":500,"pointer":"down","button":1,"x":3,"y":4}\n')
put("script", "pinch", '{"t":0,"touch":"down","id":0,"x":600,"y":400}\n{"t":0,"touch":"down","id":1,"x":700,"y":400}\n'
    '{"t":20,"touch":"move","id":1,"x":800,"y":400}\n{"t":40,"touch":"cancel","id":0}\n{"t":40,"touch":"up","id":1}\n')

# Manifests: the board's own and small ones with each kind of screen.
with open(os.path.join(root, "Board", "content", "manifest.json"), "rb") as f:
    put("manifest", "board", f.read())
put("manifest", "empty", '{"screens":[]}')
put("manifest", "article", '{"screens":[{"kind":"article","title":"A","text":"Hello\\n\\nWorld"}]}')

# Token files.
put("tokens", "three", "# name scope token\ndashboard view view-Token-0001\nci control ctrl-Token-0002\n\nfleet admin admn-Token-0003\n")
put("tokens", "crlf", "ci control ctrl-Token-0002\r\n# windows\r\nview\tview\tview-Token-0001\r\n")
put("tokens", "bad", "a owner view-Token-0001\nb view password\r\nc view x y z\n")

# Board configs.
with open(os.path.join(root, "Board", "config.example"), "rb") as f:
    put("config", "example", f.read())
put("config", "calibration", "calibration = 1.1 0 -0.05 0 0.9 0.02\nrotation = 90\nscale = 1.5\nmode = 1280x800@60\n")
put("config", "remote", 'remote_address = "127.0.0.1:8080"\n# comment\ninput = /dev/input/event3\ninput = /dev/input/event4\n')

# Feel CSVs.
put("feel-csv", "flick", "t_ms,phase,id,x,y\n0,down,0,100,400\n16,move,0,100,360\n33,move,0,100,300\n40,up,0\n")
put("feel-csv", "two", "0,down,0,10,10\n0,down,1,50,50\n8,move,1,60,70\n9,cancel,0\n20,up,1\n")
put("feel-csv", "slow", "# slow drag\n0,down,0,0,0\n100,move,0,0,-20\n300,move,0,0,-25\n900,up,0\n")

# Every line-based format saved with Windows (CRLF) and old Macintosh (CR) line ends.
put("script", "crlf", '{"t":0,"touch":"down","id":0,"x":640,"y":600}\r\n{"t":16,"touch":"move","id":0,"x":640,"y":500}\r\n'
    '{"t":32,"touch":"up","id":0}\r\n{"t":40,"key":"Esc"}\r\n')
put("config", "crlf", "rotation = 90\r\nscale = 1.5\r\nremote_token = abcdefgh1234\r\ncalibration = 1 0 0 0 1 0\r\n")
put("config", "cr", "rotation = 180\rmode = 800x480\r")
put("feel-csv", "crlf", "t_ms,phase,id,x,y\r\n0,down,0,100,400\r\n16,move,0,100,360\r\n33,up,0\r\n")

# Touches: each event is dt (ms), slot high, slot low, x, y (kind byte 9 and a little-endian
# int16 in sixteenths of a point), phase (0 down, 2 move, 4 up, 5 cancel), render (0: a frame).
def touch(dt, slot, x, y, phase, render=1):
    c = lambda v: bytes([9]) + struct.pack("<h", int(v * 16))
    return bytes([dt, slot >> 4, slot & 15]) + c(x) + c(y) + bytes([phase, render])
put("touches", "flick", b"".join([touch(0, 0, 160, 400, 0)] + [touch(8, 0, 160, 400 - 30 * k, 2, k % 2) for k in range(1, 8)]
                                 + [touch(2, 0, 160, 190, 4, 0)]))
put("touches", "thousands", b"".join([touch(0, k, 10 + k % 300, 130 + k % 300, 0, 1) for k in range(3000)]
                                     + [touch(0, k, 0, 0, 4, 1) for k in range(3000)]))
put("touches", "swipe-and-taps", b"".join([touch(0, 1, 300, 60, 0)] + [touch(8, 1, 300 - 40 * k, 60, 2) for k in range(1, 7)]
                                          + [touch(2, 1, 60, 60, 4, 0), touch(30, 2, 100, 300, 0), touch(60, 2, 100, 300, 4, 0),
                                             touch(0, 3, 20, 200, 0), touch(0, 4, 200, 200, 0), touch(16, 4, 210, 150, 2),
                                             touch(16, 3, 20, 260, 5), touch(16, 4, 210, 100, 4)]))

# PNGs of every colour type and depth, one interlaced.
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(width, height, depth, colour, rows, extra=b"", interlace=0):
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

rng = random.Random(13)
put("png", "rgba8", png(5, 4, 8, 6, [bytes(rng.randrange(256) for _ in range(20)) for _ in range(4)]))
put("png", "rgb8", png(7, 3, 8, 2, [bytes(rng.randrange(256) for _ in range(21)) for _ in range(3)]))
put("png", "grey16", png(4, 4, 16, 0, [bytes(rng.randrange(256) for _ in range(8)) for _ in range(4)]))
put("png", "greyalpha8", png(3, 5, 8, 4, [bytes(rng.randrange(256) for _ in range(6)) for _ in range(5)]))
put("png", "palette-trns", png(6, 2, 4, 3, [b"\x01\x23\x45", b"\x67\x01\x22"],
    chunk(b"PLTE", bytes(rng.randrange(256) for _ in range(24))) + chunk(b"tRNS", b"\x00\x80\xff")))
put("png", "interlaced", png(9, 9, 8, 6, [bytes(rng.randrange(256) for _ in range(36)) for _ in range(9)], interlace=1))

# JPEGs: the decoder tests' fixtures (baseline 4:4:4, 4:2:0, progressive grey).
fixtures = os.path.join(root, "Tests", "ImageCodecsTests", "Fixtures")
for name in sorted(os.listdir(fixtures)):
    if name.endswith(".jpg"):
        with open(os.path.join(fixtures, name), "rb") as f:
            put("jpeg", name[:-4], f.read())

# Fonts: subsets of the shipped fonts (a few glyphs, a few KB), so mutations reach every table.
fonts = os.path.join(root, "Fonts")
for face, text, name in [("DejaVuSans.ttf", "Glide ffi", "dejavu"), ("VL-PGothic-Regular.ttf", "日本語A", "vlgothic")]:
    out = os.path.join(here, "Corpus", "font", "seed-" + name)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([sys.executable, "-m", "fontTools.subset", os.path.join(fonts, face), "--text=" + text,
                    "--output-file=" + out, "--no-hinting", "--desubroutinize"], check=True)
put("font", "not-a-font", b"\x00\x01\x00\x00\x00\x01\x00\x00glyf" + bytes(16))

# Text layouts: size, width, alignment, line limit, spacing, origin and span, then the text.
def layout(size, width_kind, text):
    return struct.pack("<H", size - 6) + bytes([width_kind, 0]) + struct.pack("<H", 3) + struct.pack("<H", 9) + \
        bytes([0]) + struct.pack("<H", 9) + bytes([9]) + struct.pack("<hhhh", 16, 0, 160, 0) + \
        struct.pack("<HHH", 90, 40, 3) + text.encode()
put("text", "latin", layout(16, 5, "The quick brown fox jumps over the lazy dog. Hyphen-ated words wrap."))
put("text", "japanese", layout(20, 6, "日本語のテキストは、どこでも折り返せます。「禁則」も守ります。"))
put("text", "mixed", layout(12, 4, "ffi fl — “quotes” e\u0301 👍 \u202eRTL\u202c\n\nparagraph\ttab"))
# Long runs of combining marks (cut to 30 before shaping) and a word longer than many lines.
put("text", "combining", layout(24, 2, "a" + "\u0301" * 3000 + " e\u0308\u0323" * 40 + "\u0e01" + "\u0e48" * 200))
put("text", "long-word", layout(40, 5, "x" * 20000 + " end"))

# Raster and scroll programs: random bytes are programs too.
for i in range(4):
    put("raster", "random-%d" % i, bytes(rng.randrange(256) for _ in range(300)))
    put("scroll", "random-%d" % i, bytes(rng.randrange(256) for _ in range(300)))
