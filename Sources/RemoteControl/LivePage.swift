/// The live view's page (`GET /live`): the screen in `canvas#screen` at its pixel size (scaled
/// down by CSS to fit the window), updated from `/live/socket`, and the mouse, fingers, wheel
/// and keys sent back as script lines. Whole as served: no outside resources. `?readonly=1`
/// only watches; `?encoding=deflate` asks for zlib-compressed rows instead of PNG; `?fps=N`
/// (1 to 60, default 30) bounds the updates a second.
/// `window.glideLive` holds what a test reads: the last frame drawn, updates, bytes and the
/// latency from a frame's presentation to its pixels on the canvas.
enum LivePage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Glide live view</title>
        <style>
          html, body { margin: 0; height: 100%; background: #202124; color: #e8eaed; font: 13px system-ui, sans-serif; }
          body { display: flex; flex-direction: column; align-items: center; }
          #bar { padding: 6px 10px; width: 100%; box-sizing: border-box; display: flex; gap: 16px; }
          #state.bad { color: #f28b82; }
          #screen { display: block; max-width: 100vw; max-height: calc(100vh - 32px); touch-action: none;
                    outline: none; cursor: default; image-rendering: auto; background: #000; }
          #screen:focus-visible { outline: 2px solid #8ab4f8; }
        </style>
        </head>
        <body>
        <div id="bar"><span id="state">connecting…</span><span id="rate"></span>
        <button id="logout" type="button" style="margin-left: auto">Log out</button></div>
        <canvas id="screen" width="1" height="1" tabindex="0"></canvas>
        <script>
        "use strict";
        (() => {
          const canvas = document.getElementById("screen");
          const ctx = canvas.getContext("2d", { alpha: false });
          const stateText = document.getElementById("state");
          const rateText = document.getElementById("rate");
          // Ends this browser's session on the kiosk (its cookie stops working) and the socket.
          document.getElementById("logout").onclick = () => {
            // The socket's close then says "disconnected: logged out".
            fetch("/live/logout", { method: "POST", credentials: "same-origin" }).finally(() => {
              if (socket) socket.close(1000, "logged out"); else status("logged out", true);
            });
          };
          const params = new URLSearchParams(location.search);
          const live = window.glideLive = { frame: -1, updates: 0, bytes: 0, latencies: [], connected: false,
                                            closed: null, readOnly: params.get("readonly") === "1", sent: 0 };
          let socket = null;
          let drawing = Promise.resolve();

          function status(text, bad) { stateText.textContent = text; stateText.className = bad ? "bad" : ""; }

          function connect() {
            const query = new URLSearchParams();
            if (live.readOnly) query.set("readonly", "1");
            for (const name of ["encoding", "fps"]) if (params.get(name)) query.set(name, params.get(name));
            const scheme = location.protocol === "https:" ? "wss:" : "ws:";
            socket = new WebSocket(scheme + "//" + location.host + "/live/socket" + (query.toString() ? "?" + query : ""));
            socket.binaryType = "arraybuffer";
            socket.onopen = () => { live.connected = true; status("connected"); };
            socket.onclose = (e) => {
              live.connected = false;
              live.closed = { code: e.code, reason: e.reason };
              status("disconnected" + (e.reason ? ": " + e.reason : " (" + e.code + ")") + " — reload to reconnect", true);
            };
            socket.onmessage = (e) => {
              if (typeof e.data === "string") {
                const m = JSON.parse(e.data);
                if (m.type === "hello") {
                  live.readOnly = m.readOnly;
                  status(m.readOnly ? "connected, view only" : "connected");
                }
                return;
              }
              live.bytes += e.data.byteLength;
              const data = e.data;
              // Pieces are drawn in the order they came, whatever each one's decoding takes.
              drawing = drawing.then(() => draw(data)).catch((err) => status("bad update: " + err, true));
            };
          }

          async function draw(buffer) {
            const v = new DataView(buffer);
            const kind = v.getUint8(0), last = v.getUint8(1) & 1;
            const x = v.getUint32(4, true), y = v.getUint32(8, true), w = v.getUint32(12, true), h = v.getUint32(16, true);
            const sw = v.getUint32(20, true), sh = v.getUint32(24, true), frame = v.getUint32(28, true);
            const presentedAt = v.getFloat64(32, true);
            const payload = new Uint8Array(buffer, 40);
            if (canvas.width !== sw || canvas.height !== sh) { canvas.width = sw; canvas.height = sh; }
            if (kind === 1) {
              const bitmap = await createImageBitmap(new Blob([payload], { type: "image/png" }),
                                                     { colorSpaceConversion: "none", premultiplyAlpha: "none" });
              ctx.drawImage(bitmap, x, y);
              bitmap.close();
            } else if (kind === 2) {
              const stream = new Blob([payload]).stream().pipeThrough(new DecompressionStream("deflate"));
              const rows = new Uint8ClampedArray(await new Response(stream).arrayBuffer());
              ctx.putImageData(new ImageData(rows, w, h), x, y);
            } else {
              throw new Error("unknown kind " + kind);
            }
            if (last) {
              live.frame = frame;
              live.updates += 1;
              live.latencies.push(Date.now() - presentedAt);
              if (live.latencies.length > 1000) live.latencies.shift();
            }
          }

          let counted = { at: performance.now(), bytes: 0, updates: 0 };
          setInterval(() => {
            const now = performance.now(), s = (now - counted.at) / 1000;
            rateText.textContent = ((live.updates - counted.updates) / s).toFixed(0) + " updates/s, " +
                                   ((live.bytes - counted.bytes) / s / 1024).toFixed(0) + " KiB/s";
            counted = { at: now, bytes: live.bytes, updates: live.updates };
          }, 1000);

          // Input: one script line a message, applied when it arrives.
          function send(line) {
            if (live.readOnly || !socket || socket.readyState !== WebSocket.OPEN) return;
            line.t = 0;
            socket.send(JSON.stringify(line));
            live.sent += 1;
          }
          function at(e) {
            const r = canvas.getBoundingClientRect();
            const x = (e.clientX - r.left) * canvas.width / r.width, y = (e.clientY - r.top) * canvas.height / r.height;
            return { x: Math.round(Math.min(Math.max(x, 0), canvas.width - 1) * 100) / 100,
                     y: Math.round(Math.min(Math.max(y, 0), canvas.height - 1) * 100) / 100 };
          }
          const fingers = new Map();   // pointerId → finger id
          const buttons = { 0: 0x110, 1: 0x112, 2: 0x111 };   // BTN_LEFT, BTN_MIDDLE, BTN_RIGHT
          let pressed = null;
          canvas.addEventListener("pointerdown", (e) => {
            e.preventDefault();
            canvas.focus();
            canvas.setPointerCapture(e.pointerId);
            const p = at(e);
            if (e.pointerType === "touch" || e.pointerType === "pen") {
              let id = 0;
              while ([...fingers.values()].includes(id)) id++;
              fingers.set(e.pointerId, id);
              send({ touch: "down", id, x: p.x, y: p.y });
            } else if (pressed === null && e.button in buttons) {
              pressed = buttons[e.button];
              send({ pointer: "press", button: pressed, x: p.x, y: p.y });
            }
          });
          canvas.addEventListener("pointermove", (e) => {
            const p = at(e);
            if (fingers.has(e.pointerId)) send({ touch: "move", id: fingers.get(e.pointerId), x: p.x, y: p.y });
            else if (pressed !== null) send({ pointer: "move", x: p.x, y: p.y });
          });
          function lift(e, phase) {
            const p = at(e);
            if (fingers.has(e.pointerId)) {
              send({ touch: phase, id: fingers.get(e.pointerId), x: p.x, y: p.y });
              fingers.delete(e.pointerId);
            } else if (pressed !== null && (phase === "cancel" || buttons[e.button] === pressed)) {
              send({ pointer: "release", button: pressed, x: p.x, y: p.y });
              pressed = null;
            }
          }
          canvas.addEventListener("pointerup", (e) => lift(e, "up"));
          canvas.addEventListener("pointercancel", (e) => lift(e, "cancel"));
          canvas.addEventListener("contextmenu", (e) => e.preventDefault());
          canvas.addEventListener("wheel", (e) => {
            e.preventDefault();
            const p = at(e);
            // A wheel notch is 120 (libinput's v120); a browser's is about 100 pixels or 3 lines.
            const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 120 * 10 : 1.2;
            send({ wheel: { dx: e.deltaX * unit, dy: e.deltaY * unit }, x: p.x, y: p.y });
          }, { passive: false });
          const keys = { Escape: "Esc", Tab: "Tab", Enter: "Enter", " ": "Space", Home: "Home", End: "End",
                         PageUp: "PageUp", PageDown: "PageDown", ArrowUp: "Up", ArrowDown: "Down",
                         ArrowLeft: "Left", ArrowRight: "Right" };
          canvas.addEventListener("keydown", (e) => {
            const name = keys[e.key];
            if (!name || e.ctrlKey || e.altKey || e.metaKey) return;
            e.preventDefault();
            send({ key: name });
          });

          connect();
        })();
        </script>
        </body>
        </html>
        """#
}
