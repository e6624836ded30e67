#!/usr/bin/env python3
"""Where the bytes of a recorded game stream go (cursor moves, colours, glyphs, text).

Usage: tests/frame-profile.py FILE [SECONDS]
FILE is what `minotty-load --record FILE` wrote (the first player's bytes in the window);
SECONDS, the window's length, turns totals into bytes per second.
"""
import re
import sys
from collections import Counter

data = open(sys.argv[1], "rb").read()
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
tally = Counter()
csi = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
i = 0
while i < len(data):
    m = csi.match(data, i)
    if m:
        seq = m.group(0)
        final = seq[-1:]
        if seq.startswith(b"\x1b[?2026"):
            kind = "sync brackets"
        elif final == b"H":
            kind = "cursor absolute"
        elif final in b"ABCD":
            kind = "cursor relative"
        elif final == b"m":
            kind = "colour (SGR)"
        else:
            kind = "other CSI"
        tally[kind] += len(seq)
        i = m.end()
        continue
    b = data[i]
    if b in (0x08, 0x0D):
        tally["cursor relative"] += 1
        i += 1
        continue
    if b < 0x80:
        tally["spaces" if b == 0x20 else "ascii text"] += 1
        i += 1
        continue
    n = 2 if b >= 0xC0 and b < 0xE0 else 3 if b < 0xF0 else 4
    ch = data[i : i + n].decode("utf-8", "replace")
    tally[{"·": "grid dots", "█": "blocks", "░": "ghost", "▀": "half blocks",
           "▄": "half blocks", "▒": "trail"}.get(ch, "other glyphs")] += n
    i += n
total = sum(tally.values())
print(f"{total} bytes, {total / seconds:.0f} bytes/s")
for kind, v in tally.most_common():
    print(f"  {kind:<16} {v / seconds:>7.0f} B/s  {100 * v / total:5.1f}%")
