"use strict";
// The live page: draws the server's world from its frames and sends what the hand does.
// Protocol (docs/live.md): JSON text both ways, and a binary frame 60 times a second whose
// layout LiveFrames.swift documents (little-endian; 44-byte header, 16 bytes a body, 16 a hand).
(function () {
  const canvas = document.getElementById("world");
  const ctx = canvas.getContext("2d");
  const $ = (id) => document.getElementById(id);
  let scene = null;      // the last scene message
  let frame = null;      // the last decoded frame
  let socket = null;
  let mode = "drag";
  // The pointers down on the world, by pointer id: {finger, mode, start: [x, y], time}. Each
  // finger on a touch screen is a hand of its own (0 to 9; the mouse is finger 0), and does
  // what the mode was when it went down, to the end.
  const pointers = new Map();
  const pendingMoves = new Map();  // finger → its latest move, sent when the next frame comes
  let baseGravity = null;  // the scene's gravity as built (the scene message says)
  let tiltEnabled = false;
  let lastTilt = 0;

  // World <-> canvas pixels, from the scene's view with a 5 % margin.
  function transform() {
    const w = canvas.clientWidth, h = canvas.clientHeight;
    const [l, b, r, t] = scene ? scene.view : [-100, -100, 100, 100];
    const mx = (r - l) * 0.05 + 1, my = (t - b) * 0.05 + 1;
    const vw = r - l + 2 * mx, vh = t - b + 2 * my;
    const s = Math.min(w / vw, h / vh);
    const ox = (w - vw * s) / 2, oy = (h - vh * s) / 2;
    const down = scene && scene.yDown;
    return {
      s,
      toScreen: (x, y) => [ox + (x - l + mx) * s, down ? oy + (y - b + my) * s : oy + (t + my - y) * s],
      toWorld: (px, py) => [(px - ox) / s + l - mx, down ? (py - oy) / s + b - my : t + my - (py - oy) / s],
    };
  }

  function send(message) {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(message));
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => send({ type: "hello" });
    socket.onmessage = (event) => {
      if (typeof event.data === "string") return text(JSON.parse(event.data));
      frame = decode(event.data);
      if (scene && frame.version !== scene.version) send({ type: "hello" });
      sendMoves();  // the fingers' latest moves, once per frame of the world
      status();
    };
    socket.onclose = (event) => {
      // The server let go of this page's hands: a finger still down holds nothing now, so
      // it is forgotten (lift it and touch again).
      pointers.clear();
      pendingMoves.clear();
      notice("Disconnected" + (event.reason ? ": " + event.reason : "") + " — reconnecting…", false);
      setTimeout(connect, 1000);
    };
  }

  function text(message) {
    if (message.type === "scene") {
      scene = message;
      $("title").textContent = scene.name + (scene.source !== scene.name ? " (" + scene.source + ")" : "");
      baseGravity = scene.gravity;  // as the scene was built
      if (scene.failure) notice("The world stopped: " + scene.failure + " — Restart, or scrub back.", true);
    } else if (message.type === "inspect") {
      $("inspector").hidden = false;
      $("inspection").textContent = message.body ? JSON.stringify(message, null, 1).replace(/[{}"]/g, "").trim()
        : "no body there";
    } else if (message.type === "failure") {
      notice("The world stopped: " + message.text + " — Restart, or scrub back.", true);
    } else if (message.type === "error" || message.type === "reloaded" || message.type === "snap") {
      notice(message.text, false);
    }
  }

  function notice(textContent, failure) {
    const n = $("notice");
    n.hidden = false;
    n.className = failure ? "failure" : "";
    n.textContent = textContent;
    clearTimeout(notice.timer);
    if (!failure) notice.timer = setTimeout(() => { n.hidden = true; }, 6000);
  }

  function decode(buffer) {
    const v = new DataView(buffer);
    const f = {
      step: v.getUint32(4, true), flags: v.getUint32(8, true), speed: v.getFloat32(12, true),
      gravity: [v.getFloat32(16, true), v.getFloat32(20, true)],
      first: v.getUint32(24, true), last: v.getUint32(28, true), version: v.getUint32(32, true),
      bodies: [], hands: [],
    };
    const n = v.getUint32(36, true), m = v.getUint32(40, true);
    let o = 44;
    for (let i = 0; i < n; i++, o += 16) {
      f.bodies.push([v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true), v.getUint32(o + 12, true)]);
    }
    for (let i = 0; i < m; i++, o += 16) {
      f.hands.push([v.getFloat32(o, true), v.getFloat32(o + 4, true), v.getFloat32(o + 8, true), v.getFloat32(o + 12, true)]);
    }
    return f;
  }

  function status() {
    if (!frame) return;
    const paused = frame.flags & 1, failed = frame.flags & 2, full = frame.flags & 4;
    const seconds = scene ? (frame.step * scene.timeStep).toFixed(2) : "";
    $("status").textContent = "step " + frame.step + " · " + seconds + " s · gravity (" +
      frame.gravity.map((g) => g.toFixed(0)).join(", ") + ")" + (paused ? " · paused" : "") +
      (failed ? " · stopped" : "") + (full ? " · recording full" : "") + (frame.speed !== 1 ? " · " + frame.speed + "×" : "");
    $("pause").textContent = paused ? (frame.step < lastRunningStep ? "Continue here" : "Resume") : "Pause";
    const scrub = $("scrub");
    scrub.min = frame.first;
    scrub.max = Math.max(frame.first, frame.last);
    if (!scrubbing) scrub.value = Math.min(frame.step, scrub.max);
    if (!paused) lastRunningStep = frame.step;
    canvas.classList.toggle("holding", !!(frame.flags & 8));
  }
  let lastRunningStep = 0;
  let scrubbing = false;

  function fill(rgba, sleeping) {
    const [r, g, b, a] = rgba;
    const k = sleeping ? 0.55 : 1;
    return "rgba(" + Math.round(r * 255 * k) + "," + Math.round(g * 255 * k) + "," + Math.round(b * 255 * k) + "," + a + ")";
  }

  function drawShape(shape, place, s, sleeping) {
    const p = shape.points;
    // The outline is 1 pixel at most, and a quarter of the shape's thickness on screen at most:
    // a 1-pixel outline around a body 2 pixels thick (a wide world on a phone) drew it black.
    let thickness;
    ctx.beginPath();
    if (shape.type === "circle") {
      const [x, y] = place(p[0], p[1]);
      const r = Math.max(shape.radius * s, 1);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      thickness = r;
    } else if (shape.type === "segment") {
      const [x0, y0] = place(p[0], p[1]), [x1, y1] = place(p[2], p[3]);
      ctx.lineWidth = Math.max(2 * shape.radius * s, 1);
      ctx.lineCap = "round";
      ctx.moveTo(x0, y0);
      ctx.lineTo(x1, y1);
      ctx.strokeStyle = fill(shape.fill, sleeping);
      ctx.stroke();
      return;
    } else {
      // Thickness as twice the area over the perimeter: about a plank's width, half a square's side.
      let area = 0, perimeter = 0, x0 = 0, y0 = 0, xp = 0, yp = 0;
      for (let i = 0; i < p.length; i += 2) {
        const [x, y] = place(p[i], p[i + 1]);
        if (i === 0) {
          ctx.moveTo(x, y);
          x0 = x; y0 = y;
        } else {
          ctx.lineTo(x, y);
          area += xp * y - x * yp;
          perimeter += Math.hypot(x - xp, y - yp);
        }
        xp = x; yp = y;
      }
      area += xp * y0 - x0 * yp;
      perimeter += Math.hypot(x0 - xp, y0 - yp);
      ctx.closePath();
      thickness = perimeter > 0 ? Math.abs(area) / perimeter : 0; // area: twice the polygon's
    }
    ctx.fillStyle = fill(shape.fill, sleeping);
    ctx.fill();
    ctx.lineWidth = Math.min(1, thickness / 4);
    ctx.strokeStyle = "rgba(0,0,0,0.6)";
    ctx.stroke();
  }

  function draw() {
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
    }
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (scene && frame && frame.version === scene.version) {
      const t = transform();
      for (const shape of scene.statics) drawShape(shape, t.toScreen, t.s, false);
      scene.bodies.forEach((body, i) => {
        const state = frame.bodies[i];
        if (!state || body.shapes.length === 0) return;
        const [bx, by, angle, flags] = state;
        const c = Math.cos(angle), sn = Math.sin(angle);
        const place = (x, y) => t.toScreen(bx + x * c - y * sn, by + x * sn + y * c);
        for (const shape of body.shapes) drawShape(shape, place, t.s, flags & 1);
      });
      ctx.strokeStyle = "#d33";
      ctx.fillStyle = "#d33";
      ctx.lineWidth = 2;
      for (const [hx, hy, ax, ay] of frame.hands) {
        const [x0, y0] = t.toScreen(hx, hy), [x1, y1] = t.toScreen(ax, ay);
        ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
        ctx.beginPath(); ctx.arc(x0, y0, 5, 0, 2 * Math.PI); ctx.fill();
      }
    }
    requestAnimationFrame(draw);
  }

  // The hand: pointer events cover the mouse, a pen and fingers.
  function worldPoint(event) {
    const r = canvas.getBoundingClientRect();
    return transform().toWorld(event.clientX - r.left, event.clientY - r.top);
  }
  function sendMoves() {
    for (const move of pendingMoves.values()) send(move);
    pendingMoves.clear();
  }
  function freeFinger() {
    const used = new Set([...pointers.values()].map((p) => p.finger));
    for (let finger = 0; finger < 10; finger++) if (!used.has(finger)) return finger;
    return null;  // ten fingers down already: the eleventh does nothing
  }
  canvas.addEventListener("pointerdown", (event) => {
    const finger = freeFinger();
    if (finger === null || pointers.has(event.pointerId)) return;
    canvas.setPointerCapture(event.pointerId);
    const [x, y] = worldPoint(event);
    pointers.set(event.pointerId, { finger, mode, start: [x, y], time: performance.now() });
    if (mode === "drag") send({ type: "grab", x, y, finger });
    if (mode === "inspect") send({ type: "inspect", x, y });
    if (mode === "snap") send({ type: "snap", x, y });
  });
  canvas.addEventListener("pointermove", (event) => {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    const [x, y] = worldPoint(event);
    if (pointer.mode === "drag") pendingMoves.set(pointer.finger, { type: "move", x, y, finger: pointer.finger });
  });
  function pointerEnd(event) {
    const pointer = pointers.get(event.pointerId);
    if (!pointer) return;
    pointers.delete(event.pointerId);
    const [x, y] = worldPoint(event);
    if (pointer.mode === "drag") {
      sendMoves();
      send({ type: "release", finger: pointer.finger });
    } else if (pointer.mode === "flick") {
      const seconds = Math.max((performance.now() - pointer.time) / 1000, 0.05);
      const clamp = (v) => Math.max(-10000, Math.min(10000, v));
      send({ type: "push", x: pointer.start[0], y: pointer.start[1],
        vx: clamp((x - pointer.start[0]) / seconds), vy: clamp((y - pointer.start[1]) / seconds) });
    }
  }
  canvas.addEventListener("pointerup", pointerEnd);
  canvas.addEventListener("pointercancel", pointerEnd);

  // Controls.
  $("pause").onclick = () => send({ type: frame && (frame.flags & 1) ? "resume" : "pause" });
  $("step").onclick = () => send({ type: "step" });
  $("speed").onchange = (event) => send({ type: "speed", value: Number(event.target.value) });
  $("restart").onclick = () => { send({ type: "restart" }); $("notice").hidden = true; };
  // The Recording and Snapshot links download as links do; when the world cannot give one
  // (a recording of no step yet, a world stopped inside the engine), the server answers
  // 409 with why: that goes in the notice instead of a file.
  for (const [id, fallback] of [["recording", "session.inputs.json"], ["snapshot", "world.snapshot"]]) {
    $(id).onclick = async (event) => {
      event.preventDefault();
      const response = await fetch(id, { cache: "no-store" });
      if (!response.ok) { notice((await response.text()).trim(), false); return; }
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await response.blob());
      link.download = (response.headers.get("content-disposition") || "").match(/filename="([^"]+)"/)?.[1] || fallback;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    };
  }
  const scrub = $("scrub");
  scrub.oninput = () => { scrubbing = true; };
  scrub.onchange = () => { scrubbing = false; send({ type: "scrub", step: Number(scrub.value) }); };
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.onchange = () => { mode = radio.value; };
  }
  $("closeInspector").onclick = () => { $("inspector").hidden = true; };

  // Gravity: the arrow keys turn it by 15°, ↓ sets it back; a phone's tilt sets it.
  function gravityNow() { return frame ? frame.gravity : [0, -1000]; }
  function strength() {
    const g = baseGravity || gravityNow();
    return Math.hypot(g[0], g[1]) || 1000;
  }
  document.addEventListener("keydown", (event) => {
    // The page's keys work whatever has the focus, but for what a control's own keys do: a
    // field's typing, and the arrows of the speed menu and the Back slider. (Ignored over any
    // INPUT, the keys did nothing after a click on a mode, and the arrows switched the mode.)
    const t = event.target;
    if (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["radio", "range", "checkbox"].includes(t.type))) return;
    if ((t.tagName === "SELECT" || t.type === "range") && event.key.startsWith("Arrow")) return;
    const [gx, gy] = gravityNow();
    const turn = (a) => {
      const c = Math.cos(a), s = Math.sin(a);
      send({ type: "tilt", gx: gx * c - gy * s, gy: gx * s + gy * c });
    };
    const down = scene && scene.yDown ? -1 : 1;
    if (event.key === "ArrowLeft") turn(-Math.PI / 12 * down);
    else if (event.key === "ArrowRight") turn(Math.PI / 12 * down);
    else if (event.key === "ArrowDown" && baseGravity) send({ type: "tilt", gx: baseGravity[0], gy: baseGravity[1] });
    else if (event.key === " ") $("pause").click();
    else if (event.key === "s" || event.key === "S") $("step").click();
    else if (event.key === "r" || event.key === "R") $("restart").click();
    else return;
    event.preventDefault();
  });

  // The book's tilt, live: gravity in the screen's plane from the device's orientation.
  function onOrientation(event) {
    if (event.beta === null || event.gamma === null) return;
    const now = performance.now();
    if (now - lastTilt < 100) return;  // ten a second is plenty
    lastTilt = now;
    const g = strength(), rad = Math.PI / 180;
    const down = scene && scene.yDown ? -1 : 1;
    const gx = g * Math.sin(event.gamma * rad);
    const gy = -g * Math.sin(event.beta * rad) * down;
    send({ type: "tilt", gx, gy });
  }
  $("tilt").onclick = async () => {
    if (typeof DeviceOrientationEvent !== "undefined" && typeof DeviceOrientationEvent.requestPermission === "function") {
      try { if ((await DeviceOrientationEvent.requestPermission()) !== "granted") return; } catch (e) { return; }
    }
    tiltEnabled = !tiltEnabled;
    $("tilt").textContent = tiltEnabled ? "Tilt on" : "Tilt";
  };
  window.addEventListener("deviceorientation", (event) => { if (tiltEnabled || event.isTrusted === false) onOrientation(event); });

  // For scripts and tests: where a world point is on the page, and what the page holds.
  window.live = {
    toPage(x, y) {
      const r = canvas.getBoundingClientRect();
      const [px, py] = transform().toScreen(x, y);
      return [px + r.left, py + r.top];
    },
    get scene() { return scene; },
    get frame() { return frame; },
    get connected() { return !!socket && socket.readyState === 1; },
    get pointersDown() { return pointers.size; },
  };

  connect();
  requestAnimationFrame(draw);
})();
