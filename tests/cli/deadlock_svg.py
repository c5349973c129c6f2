#!/usr/bin/env python3
"""Check a `routesim run --svg` picture of a deadlock against its deadlock line (used by
tests/cli/picture.sh): the red (highlighted) edges of the SVG are exactly the channels of the
waiting cycle, counted once each, and the filled nodes are exactly their ends.
usage: deadlock_svg.py SVG LINE_FILE  -> prints "ok N" or raises."""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
svg, line = sys.argv[1], open(sys.argv[2]).read()
label, filled, red = {}, set(), []
for g in ET.parse(svg).iter(NS + "g"):
    cls = (g.get("class") or "").split()
    title = g.find(NS + "title").text if g.find(NS + "title") is not None else None
    if "node" in cls:
        text = g.find(NS + "text")
        label[title] = text.text if text is not None else title
        shape = g.find(NS + "polygon")
        if shape is None:
            shape = g.find(NS + "ellipse")
        if shape is not None and shape.get("fill") not in (None, "none", "white"):
            filled.add(title)
    elif "edge" in cls:
        path = g.find(NS + "path")
        if path is not None and path.get("stroke") == "red":
            assert "deadlock" in cls, cls
            tail, head = title.split("->")
            red.append((tail, head))
pairs = [(label[t], label[h]) for t, h in red]
assert len(set(pairs)) == len(pairs), "an edge drawn twice"
ends = {label[n] for n in filled}
want = re.findall(r"waits for (\S+)->(\S+) vc", line)
m = re.search(r"waiting cycle of (\d+)", line)  # router=iq's line gives no count
n = int(m.group(1)) if m else len(want)
if want:  # flit engines and router=iq: the channels are named in the line (a channel
    # waited for on two VCs is named twice and drawn once)
    assert len(want) == n, (len(want), n)
    assert sorted(pairs) == sorted(set(want)), (pairs, want)
else:  # store-and-forward: the queues' nodes, each one red channel out to the next
    nodes = re.findall(r"queue (?:\d+ )?of (\S+) \(", line)
    assert len(nodes) == n, (nodes, n)
    assert sorted(t for t, _ in pairs) == sorted(nodes), (pairs, nodes)
    assert sorted(h for _, h in pairs) == sorted(nodes), (pairs, nodes)
assert ends == {x for p in pairs for x in p}, (ends, pairs)
print("ok", len(pairs))
