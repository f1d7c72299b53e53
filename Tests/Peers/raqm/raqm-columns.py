#!/usr/bin/env python3
"""Writes raqm-columns.json: ink per pixel column of a few right-to-left and mixed lines drawn
by Pillow with libraqm (FriBidi + HarfBuzz), DejaVu Sans at 16 px. TextTests/BidiTests compares Glide's
drawing of the same lines with these columns; rerun this after changing a line or the font.
Needs Pillow with raqm (`python3 -c "from PIL import features; print(features.check('raqm'))"`)."""
import json
import os

from PIL import Image, ImageDraw, ImageFont, features

LINES = ["שלום עולם", "مرحبا بالعالم", "أحمد 12 Ahmed", "שלום 123 world (abc)", "Welcome to مرحبا بكم today"]
HERE = os.path.dirname(os.path.abspath(__file__))
FONT = os.path.join(HERE, "..", "..", "..", "Fonts", "DejaVuSans.ttf")


def columns(text):
    font = ImageFont.truetype(FONT, 16, layout_engine=ImageFont.Layout.RAQM)
    image = Image.new("L", (400, 30), 0)
    ImageDraw.Draw(image).text((10, 5), text, font=font, fill=255)
    width, height = image.size
    pixels = image.load()
    ink = [sum(pixels[x, y] for y in range(height)) for x in range(width)]
    return ink


def main():
    assert features.check("raqm"), "Pillow was built without libraqm"
    out = {text: columns(text) for text in LINES}
    with open(os.path.join(HERE, "raqm-columns.json"), "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
