"""Board/image.sh test, host side: boots the kiosk image in QEMU, takes a QMP screendump every
quarter second until the app is at rest (no console text or login prompt may show before it), answers
the guest's screendump requests, and checks what the guest reports over the serial console."""
import os, re, subprocess, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vboard"))
from host import QMP, read_png, differing_pixels, lit_pixels  # noqa: E402

# The kiosk's checks and the Debian packages' install, upgrade and purge take 130-150 s on x86_64
# (an emulated aarch64 board's whole boot 400-800 s); Board/image.sh sets this for each.
TIMEOUT = float(os.environ.get("IMAGE_QEMU_TIMEOUT_SECONDS", "1800"))
# How long the boot is watched at most (it ends at the guest's first shot): an emulated aarch64
# board (Board/image.sh --arch aarch64) showed its first frame 58 s after QEMU's start in one run
# and about 130 s in another, and a host's slow hour may take three times as long.
BOOT_WATCH = float(os.environ.get("IMAGE_BOOT_WATCH_SECONDS", "600"))
# The shots a second after a restart or the display's return, compared exactly with the headless
# render: taken once the screen shows it (at most 10 s; the others follow longer waits).
STEADY_SHOTS = {"after-SEGV", "after-KILL", "after-watchdog", "after-release"}


def main():
    outdir, expected_png, qemu = sys.argv[1], sys.argv[2], sys.argv[3:]
    qmp_path = os.path.join(outdir, "qmp.sock")
    qemu = qemu + ["-qmp", f"unix:{qmp_path},server=on,wait=off"]
    t0 = time.time()
    proc = subprocess.Popen(qemu, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    timer = threading.Timer(TIMEOUT, proc.kill); timer.start()
    qmp, lock = QMP(qmp_path), threading.Lock()
    ew, eh, expected = read_png(expected_png)

    def dump(name, fmt="png", steady=False):
        path = os.path.join(outdir, f"{name}.{fmt}")
        with lock:
            r = qmp.steady_screendump(path, until=expected) if steady else qmp.call("screendump", filename=os.path.abspath(path), format=fmt)
        return path if "error" not in r else None

    # Boot watch: screendumps every quarter second, timed when asked for, until the guest's
    # first shot (the app is at rest by then); looked at afterwards, so that Python reading them
    # does not stretch the interval. The first equal to the headless frame is the app at rest;
    # the first with most pixels lit is its first frame (its start-up animation follows).
    boot = {"dumps": [], "shots": [], "first": None, "app": None, "stop": False}
    def watch():
        n = 0
        while not boot["stop"] and proc.poll() is None and time.time() - t0 < BOOT_WATCH:
            t = time.time() - t0
            path = dump(f"boot-{n:03d}", "ppm")   # QEMU's cheapest: no compression to steal the guest's CPU
            if path: boot["dumps"].append((t, path))
            n += 1
            time.sleep(0.25)
    def look_at_boot():
        # Only the first dump's pixels are kept (3 MB each: a slow boot takes hundreds); each
        # other one is kept as whether it differs from the first.
        for t, path in boot["dumps"]:
            w, h, rows = read_png(path)
            same = (w, h) == (ew, eh) and differing_pixels(rows, expected) == 0
            n_lit = lit_pixels(rows)
            boot.setdefault("first_rows", rows)
            boot["shots"].append((t, path, same, n_lit, rows != boot["first_rows"]))
            if boot["app"] is None and n_lit > w * h // 2: boot["app"] = t
            if same:
                boot["first"] = t
                break
    threading.Thread(target=watch, daemon=True).start()

    marks, shots, journal = {}, {}, []
    log = open(os.path.join(outdir, "console.log"), "w")
    for raw in proc.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        log.write(line + "\n"); log.flush()
        m = re.search(r"@@(\w+) ?(.*)@@", line)
        if not m:
            continue
        kind, text = m.group(1), m.group(2)
        if kind == "SHOT":
            boot["stop"] = True
            shots[text] = dump(text, steady=text in STEADY_SHOTS)
            proc.stdin.write(b"ok\n"); proc.stdin.flush()
        elif kind == "JOURNAL":
            journal.append(text)
        elif kind in ("CHAIN", "BLAME", "START"):
            marks.setdefault(kind, []).append(text)
        elif kind in ("DEBPASS", "DEBFAIL", "DEBFIGURE", "APT"):
            marks.setdefault(kind, []).append(text)
            print(f"  {kind} {text}", flush=True)
        else:
            key = kind + (" " + text.split()[0] if kind == "RESTART" else "")
            marks[key] = text
            print(f"  {kind} {text}")
    proc.wait(); timer.cancel()
    look_at_boot()

    ok = True
    def check(cond, what):
        nonlocal ok
        print(("PASS " if cond else "FAIL ") + what)
        ok = ok and cond

    check("DONE" in marks, "the guest ran every check and powered off")
    check(boot["first"] is not None, "a screendump during boot equals the headless render of the app at rest"
          + (f" ({boot['first']:.1f} s after QEMU started)" if boot["first"] else ""))
    # Before the app's first frame the panel may show nothing, or QEMU's own "Display output is
    # not active" (before the guest's driver takes it): never a text console or a login prompt.
    before = [s for s in boot["shots"] if boot["app"] is None or s[0] < boot["app"]]
    inactive = boot.get("first_rows") if before else None
    flashes = [f"{t:.1f} s ({n} lit pixels, {os.path.basename(p)})" for t, p, same, n, unlike_first in before
               if n > 0 and unlike_first]
    check(not flashes and len(before) > 0,
          f"no console text between QEMU's start and the first frame ({len(before)} screendumps"
          + (f"; text at {', '.join(flashes[:3])}" if flashes else ": black, or QEMU's inactive-output notice") + ")")
    # 3 MB each: only those that showed text stay, as evidence.
    for t, p in boot["dumps"]:
        if not any(os.path.basename(p) in f for f in flashes): os.remove(p)
    if shots.get("first"):
        n = differing_pixels(read_png(shots["first"])[2], expected)
        check(n == 0, f"the service's first frame equals the headless render ({n} pixels differ)")
    user = marks.get("USER", "")
    check(user.startswith("glide ") and "uid=0" not in user,
          f"glide runs as the service user, not root: {user}")
    check(all(g in user for g in ("video", "input")), "with the video and input groups the udev rules give device access by")
    for sig in ("SEGV", "KILL"):
        r = marks.get(f"RESTART {sig}", "")
        check("back" in r, f"after systemctl kill -s {sig} systemd restarted glide (Restart=always): {r}")
        if shots.get(f"after-{sig}"):
            n = differing_pixels(read_png(shots[f"after-{sig}"])[2], expected)
            check(n == 0, f"and its frame is back on screen ({n} pixels differ)")
    wd = marks.get("WATCHDOG", "")
    check("back" in wd and "watchdog" in marks.get("WATCHDOGLOG", "").lower(),
          f"a stopped glide (SIGSTOP) was killed by systemd's watchdog and restarted: {wd}; {marks.get('WATCHDOGLOG')}")
    if shots.get("after-watchdog"):
        n = differing_pixels(read_png(shots["after-watchdog"])[2], expected)
        check(n == 0, f"and its frame is back on screen ({n} pixels differ)")
    if shots.get("after-release"):
        n = differing_pixels(read_png(shots["after-release"])[2], expected)
        check(n == 0, f"the display released (SIGUSR1) and taken back (SIGUSR2) shows the frame again ({n} pixels differ)")
    levels = dict((int(p), int(c)) for c, p in re.findall(r'(\d+) "PRIORITY":"(\d)"', marks.get("PRIORITIES", "")))
    check(all(levels.get(p, 0) > 0 for p in (4, 5, 6)),
          f"glide's own journal lines carry their levels: warning, notice and info ({marks.get('PRIORITIES')})")
    for p in (4, 5, 6): print(f"  priority {p}: {marks.get(f'PRIORITY{p}', '')}")
    native = marks.get("JOURNALFIELDS", "0").split()
    check(int(native[0]) > 0 if native and native[0].isdigit() else False,
          f"glide logs through libsystemd with fields (entries with CODE_FILE, a CODE_FUNC): {marks.get('JOURNALFIELDS')}")
    check(marks.get("DISPATCHNICE") == "0",
          f"no libdispatch complaint about thread priorities (LimitNICE= lets its workers renice): {marks.get('DISPATCHNICE')}")
    clip = marks.get("VIDEO", "")
    clip_shots = [shots.get(f"video-{k}") for k in "abc"]
    if "playing" in clip and all(clip_shots):
        ra, rb, rc = (read_png(p)[2] for p in clip_shots)
        n, shown = max(differing_pixels(ra, rb), differing_pixels(rb, rc)), differing_pixels(ra, expected)
        check(n > 0 and shown > ew * eh // 2,
              f"the image's GStreamer plays a WebM clip on the DRM path: {clip}; it covers the catalog "
              f"({shown} pixels unlike its frame) and moves ({n} pixels changed in 0.7 s)")
        check("gstreamer-1.0-registry" in marks.get("GSTREGISTRY", ""),
              f"GStreamer keeps its plugin registry in the unit's CacheDirectory: /var/cache/glide/glide holds {marks.get('GSTREGISTRY')}")
    else:
        check(False, f"the image's GStreamer plays a WebM clip on the DRM path: {clip or 'no report'}")
    if shots.get("console"):
        rows = read_png(shots["console"])[2]
        n = lit_pixels(rows)
        check(0 < n < ew * eh // 20 and rows != inactive,
              f"the text console came back when the service was stopped ({n} lit pixels)")
    # The Debian packages (Board/deb.sh, image/deb-test.sh), when the image holds them.
    if os.environ.get("IMAGE_DEB_TEST") == "1":
        passed, failed = marks.get("DEBPASS", []), marks.get("DEBFAIL", [])
        check(bool("DEBDONE" in marks and passed and not failed),
              f"the Debian packages: {len(passed)} checks passed, {len(failed)} failed"
              + "".join(f"\n    failed: {f}" for f in failed))
        for name, expected_png, what in (("deb-glide-installed", os.path.join(outdir, "expected-bringup.png"), "the bring-up pattern"),
                                         ("deb-glide-upgraded", expected_png, "the catalog the edited config asks for")):
            if shots.get(name) and os.path.exists(expected_png):
                n = differing_pixels(read_png(shots[name])[2], read_png(expected_png)[2])
                check(n == 0, f"{name}: the package's glide shows {what}, as the headless render ({n} pixels differ)")
            else:
                check(False, f"{name}: no screendump")
        for name in sorted(k for k in shots if k.startswith("deb-") and not k.startswith("deb-glide-")):
            n = lit_pixels(read_png(shots[name])[2])
            check(n > ew * eh // 4, f"{name}: the app's package draws ({n} lit pixels)")
    print("figures:")
    for f in marks.get("DEBFIGURE", []): print(f"  package: {f}")
    if boot["app"] is not None:
        print(f"  QEMU start to the app's first frame on screen (host clock, screendumps every 0.25 s): {boot['app']:.1f} s")
    if boot["first"] is not None:
        print(f"  QEMU start to the app at rest on screen: {boot['first']:.1f} s")
    m = re.search(r"first frame on screen at uptime ([\d.]+)", marks.get("FIRSTFRAME", ""))
    if m: print(f"  kernel's clock (uptime) at the first frame: {m.group(1)} s")
    if "ANALYZE" in marks: print(f"  systemd-analyze: {marks['ANALYZE']}")
    for l in marks.get("CHAIN", []): print(f"  critical chain: {l}")
    for l in marks.get("BLAME", []): print(f"  blame: {l}")
    for l in marks.get("START", []): print(f"  glide's first start: {l}")
    print(f"  total {time.time() - t0:.0f} s; screendumps and console log in {outdir}")
    print("IMAGE TEST PASSED" if ok else "IMAGE TEST FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
