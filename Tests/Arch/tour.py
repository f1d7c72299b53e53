"""The catalog tour for the same-pixels check, placed by the catalog's own layout at a size:
python3 tour.py START.json > tour.jsonl, START.json being the state of the catalog at rest
(`glide run --backend headless --app catalog --size WxH --script` with a `state` line).

A rubber band (pulled, held, let go), a flick up and one back down, a carousel swipe that snaps
a page, a tap on the page control, the photo's pinch (held, released) and double tap, and the
Japanese article flicked, each with screenshots mid-animation. Fingers move every 16-20 ms."""
import json, sys

state = json.load(open(sys.argv[1]))
element = {e["id"]: e["frame"] for e in state["elements"]}
scroll = {v["id"]: v["frame"] for v in state["scrollViews"]}
pages = {p["id"]: p["frame"] for p in state["pageControls"]}
fx, fy, fw, fh = scroll["feed"]
cx, cy, cw, ch = scroll["feed-carousel"]
# The page control sits on the carousel's lower edge; below the fold it is not in the state.
px, py, pw, ph = pages.get("feed-carousel-pages", [cx, cy + ch - 38, cw * 0.6, 28])
events = []


def at(x0, y0, w, h, u, v):
    """The point (u, v) of a frame, kept inside the feed (what is below the fold is not touched)."""
    return round(x0 + w * u), round(min(max(y0 + h * v, fy + 4), fy + fh - 4))


def middle(frame):
    return round(frame[0] + frame[2] / 2), round(frame[1] + frame[3] / 2)


def drag(t, points, dt=16):
    events.append({"t": t, "touch": "down", "id": 0, "x": points[0][0], "y": points[0][1]})
    for i, (x, y) in enumerate(points[1:], 1):
        events.append({"t": t + i * dt, "touch": "move", "id": 0, "x": x, "y": y})
    end = t + (len(points) - 1) * dt + 2
    events.append({"t": end, "touch": "up", "id": 0})
    return end


def line(a, b, n):
    return [(round(a[0] + (b[0] - a[0]) * i / n), round(a[1] + (b[1] - a[1]) * i / n)) for i in range(n + 1)]


def shot(t, name):
    events.append({"t": t, "screenshot": name})


def tap(t, point):
    events.append({"t": t, "touch": "down", "id": 0, "x": point[0], "y": point[1]})
    events.append({"t": t + 50, "touch": "up", "id": 0})


# The feed's free column: beside the carousel when it is wide, else its lower part.
column = 0.5
drag(500, line(at(fx, fy, fw, fh, column, 0.2), at(fx, fy, fw, fh, column, 0.6), 20), dt=20)
shot(900, "rubber-band-held")           # the finger is still down (up at 902)
shot(1100, "rubber-band-spring")
end = drag(2500, line(at(fx, fy, fw, fh, column, 0.95), at(fx, fy, fw, fh, column, 0.5), 6))
shot(end + 120, "flick-early"); shot(end + 500, "flick-late")
end = drag(7200, line(at(fx, fy, fw, fh, column, 0.3), at(fx, fy, fw, fh, column, 0.95), 6))
shot(end + 200, "flick-down")
end = drag(10000, line(at(cx, cy, cw, ch, 0.8, 0.5), at(cx, cy, cw, ch, 0.45, 0.51), 8), dt=20)
shot(end + 90, "page-snap")
tap(11500, at(px, py, pw, ph, 0.85, 0.5)); shot(11620, "page-control-step")
tap(13000, middle(element["tab-photo"])); shot(13300, "photo-transition")
mx, my = at(fx, fy, fw, fh, 0.5, 0.5)
events += [{"t": 14500, "touch": "down", "id": 0, "x": mx - 60, "y": my},
           {"t": 14500, "touch": "down", "id": 1, "x": mx + 60, "y": my}]
for i in range(1, 13):
    events += [{"t": 14500 + i * 16, "touch": "move", "id": 0, "x": mx - 60 - i * 12, "y": my - i * 4},
               {"t": 14500 + i * 16, "touch": "move", "id": 1, "x": mx + 60 + i * 12, "y": my + i * 4}]
shot(14692, "pinch-held")
events += [{"t": 14694, "touch": "up", "id": 0}, {"t": 14694, "touch": "up", "id": 1}]
shot(14812, "pinch-released")
tap(17000, (mx, my)); tap(17200, (mx, my)); shot(17400, "double-tap-zoom")
tap(19500, middle(element["tab-article-ja"])); shot(19800, "article-ja-transition")
end = drag(21000, line(at(fx, fy, fw, fh, 0.5, 0.9), at(fx, fy, fw, fh, 0.5, 0.4), 6))
shot(end + 150, "article-ja-flick")
shot(24000, "article-ja-rest")
for e in sorted(events, key=lambda e: e["t"]):
    print(json.dumps(e, separators=(",", ":")))
