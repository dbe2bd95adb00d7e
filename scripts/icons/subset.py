#!/usr/bin/env python3
"""Makes crates/server/web/icons.woff2 and emotes.woff2: the web client's
icons (every emoji and symbol its pages and scripts write) cut out of Noto
Emoji, the monochrome outline emoji font (SIL Open Font License 1.1, see
OFL.txt here), so the client looks the same on a machine with no emoji
font. The chat's emotes (social.js, EMOTES) go to a font of their own,
which a page loads only when one is shown: the table page's first load
stays within its budget. app.css names the emotes' code points in that
font's unicode-range; the script prints them.

The icons font is a subset of the npm package @fontsource/noto-emoji
(version below), file noto-emoji-emoji-400-normal.woff2. Run it again
after adding an emoji to the client:

    python3 -m venv target/fonttools && target/fonttools/bin/pip install fonttools brotli
    (cd target && npm pack @fontsource/noto-emoji@5.3.2 && tar xzf fontsource-noto-emoji-5.3.2.tgz)
    target/fonttools/bin/python scripts/icons/subset.py target/package/files/noto-emoji-emoji-400-normal.woff2

Only code points from U+2300 up are taken, and only those the font has
(arrows, ✓ and the like are left to the page's text font).
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = ROOT / "crates" / "server" / "web"


def used():
    """The code points from U+2300 up in the client's pages and scripts,
    and those of the chat's emotes (the `EMOTES` line of social.js)."""
    found = set()
    emotes = set()
    for f in sorted(WEB.iterdir()):
        if f.suffix in (".js", ".html", ".css"):
            text = f.read_text(encoding="utf-8")
            found.update(ord(c) for c in text if ord(c) >= 0x2300)
            for line in text.splitlines():
                if line.strip().startswith("const EMOTES ="):
                    emotes.update(ord(c) for c in line if ord(c) >= 0x2300)
    return found, emotes


def cut(source, codepoints, out):
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = [0, 1, 2, 13, 14]  # copyright, family, style, license
    options.drop_tables += ["GSUB", "GPOS", "GDEF"]
    font = TTFont(source)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=codepoints)
    sub.subset(font)
    font.flavor = "woff2"
    font.save(out)
    print(f"{out}: {len(codepoints)} icons, {out.stat().st_size} bytes")


def main(source):
    have = TTFont(source).getBestCmap()
    found, emotes = used()
    emotes = sorted(cp for cp in emotes if cp in have)
    icons = sorted(cp for cp in found if cp in have and cp not in emotes)
    cut(source, icons, WEB / "icons.woff2")
    cut(source, emotes, WEB / "emotes.woff2")
    print("emotes' unicode-range for app.css:", ",".join(f"U+{cp:X}" for cp in emotes))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "package/files/noto-emoji-emoji-400-normal.woff2")
