# Times GET /state while a burst of GET /audit requests is under way on a 4096x4096 headless app.
import concurrent.futures, http.client, subprocess, sys, time
binary, port = sys.argv[1], 18431
app = subprocess.Popen([binary, "run", "--backend", "headless", "--size", "4096x4096", "--remote", f"127.0.0.1:{port}"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
def get(path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    t = time.monotonic(); c.request("GET", path); r = c.getresponse(); r.read(); return r.status, time.monotonic() - t
try:
    for _ in range(600):
        try: get("/state"); break
        except OSError: time.sleep(0.1)
    quiet = sorted(get("/state")[1] for _ in range(5))[2]
    with concurrent.futures.ThreadPoolExecutor(128) as pool:
        audits = [pool.submit(get, "/audit") for _ in range(128)]
        time.sleep(0.05)
        during = [get("/state")[1] for _ in range(5)]
        statuses = [a.result()[0] for a in audits]
    print(f"/state alone {quiet*1000:.1f} ms; during 128 audits: {', '.join(f'{d*1000:.0f}' for d in during)} ms; "
          f"audits: {statuses.count(200)} x 200, {statuses.count(429)} x 429")
finally:
    app.terminate(); app.wait()
