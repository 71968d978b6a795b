"use strict";
(async () => {
const H = JSON.parse(document.getElementById("replay-header").textContent);
const packed = Uint8Array.from(atob(document.getElementById("replay-data").textContent.trim()),
                               c => c.charCodeAt(0));
const raw = new Uint8Array(await new Response(new Blob([packed]).stream()
    .pipeThrough(new DecompressionStream("deflate"))).arrayBuffer());
const F = H.frames, B = H.bodies.length, C = H.constraints.length, G = H.grid;
const payload = decodeReplayPayload(raw, H);
const { steps, samples, states, present, opacity, constraintPoints, contactCounts, contacts, contactStart } = payload;

const canvas = document.getElementById("view");
canvas.width = H.width; canvas.height = H.height;
const ctx = canvas.getContext("2d");
const [vx, vy, vw, vh] = H.view;
const scale = H.width / vw;
const $ = id => document.getElementById(id);
const scrub = $("scrub"), clock = $("clock"), playButton = $("play"), tip = $("tip");
scrub.min = steps[0]; scrub.max = steps[F - 1];
$("about").textContent = `${H.title}: ${B} ${B === 1 ? "body" : "bodies"}, ${F} recorded ` +
  `${F === 1 ? "step" : "steps"} of ${(H.timeStep * 1000).toFixed(3)} ms, ` +
  `${((steps[F - 1] - steps[0]) * H.timeStep).toFixed(3)} s. ` +
  "Hover a body for its values. Keys: space, ← →.";

const rgba = (c, alpha) => `rgba(${Math.round(c[0] * 255)},${Math.round(c[1] * 255)},` +
  `${Math.round(c[2] * 255)},${alpha ?? c[3]})`;
const OUTLINE = "rgb(51,51,51)", CONSTRAINT = "rgb(0,191,0)", CONTACT = "rgb(255,0,0)";
const SLEEPING = "rgb(51,51,51)", IDLE = "rgb(168,168,168)";

// The playhead, in steps (fractional while playing).
let playhead = steps[0], playing = false, speed = 1, lastTime = null;
let showContacts = false, showConstraints = true, hover = null;

// The recorded frame at or before step s, and how far towards the next one s is.
function locate(s) {
  let lo = 0, hi = F - 1;
  if (s <= steps[0]) return [0, 0];
  if (s >= steps[F - 1]) return [F - 1, 0];
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (steps[mid] <= s) lo = mid; else hi = mid; }
  return [lo, (s - steps[lo]) / (steps[lo + 1] - steps[lo])];
}
// A body's pose at frame i, a fraction u of the way to frame i + 1.
function pose(b, i, u) {
  const k = (b * F + i) * QUANTITIES, n = k + QUANTITIES;
  const [x, y, a] = [k + Quantity.x, k + Quantity.y, k + Quantity.angle];
  if (u === 0 || i + 1 >= F || states[b * F + i + 1] === BodyState.absent) return [samples[x], samples[y], samples[a]];
  const lerp = q => samples[k + q] + (samples[n + q] - samples[k + q]) * u;
  return [lerp(Quantity.x), lerp(Quantity.y), lerp(Quantity.angle)];
}
const toWorld = (p, x, y) => {
  const c = Math.cos(p[2]), s = Math.sin(p[2]);
  return [p[0] + x * c - y * s, p[1] + x * s + y * c];
};

function shapePath(shape, p) {
  const pts = shape.points;
  ctx.beginPath();
  if (shape.type === "circle") {
    const [cx, cy] = p ? toWorld(p, pts[0], pts[1]) : pts;
    ctx.arc(cx, cy, shape.radius, 0, 2 * Math.PI);
  } else {
    for (let j = 0; j + 1 < pts.length; j += 2) {
      const [x, y] = p ? toWorld(p, pts[j], pts[j + 1]) : [pts[j], pts[j + 1]];
      if (j === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    if (shape.type === "polygon") ctx.closePath();
  }
}
function drawShape(shape, p, fill) {
  const hair = 1 / scale;
  ctx.lineWidth = hair;
  if (shape.type === "segment") {
    for (const [color, extra] of [[OUTLINE, hair], [fill, 0]]) {
      ctx.lineWidth = Math.max(2 * shape.radius + 2 * extra, hair);
      shapePath(shape, p); ctx.strokeStyle = color; ctx.stroke();
    }
    return;
  }
  shapePath(shape, p);
  if (shape.type === "polygon" && shape.radius > 0) {
    ctx.lineWidth = 2 * shape.radius; ctx.strokeStyle = fill; ctx.stroke(); ctx.lineWidth = hair;
  }
  ctx.fillStyle = fill; ctx.fill(); ctx.strokeStyle = OUTLINE; ctx.stroke();
  if (shape.type === "circle") {
    const angle = p ? p[2] : 0;
    const [cx, cy] = p ? toWorld(p, shape.points[0], shape.points[1]) : shape.points;
    ctx.beginPath(); ctx.moveTo(cx, cy);
    ctx.lineTo(cx + Math.cos(angle) * shape.radius, cy + Math.sin(angle) * shape.radius);
    ctx.stroke();
  }
}
function fillOf(shape, state, alpha) {
  if (shape.sensor) return rgba(shape.fill);
  if (state === BodyState.asleep) return SLEEPING;
  if (state === BodyState.idle) return IDLE;
  return alpha === 255 ? rgba(shape.fill) : rgba(shape.fill, shape.fill[3] * alpha / 255);
}
function dot(x, y, color) {
  ctx.beginPath(); ctx.arc(x, y, 2.5 / scale, 0, 2 * Math.PI); ctx.fillStyle = color; ctx.fill();
}

function draw() {
  const [i, u] = locate(playhead);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#fff"; ctx.fillRect(0, 0, canvas.width, canvas.height);
  if (H.yPointsDown) ctx.setTransform(scale, 0, 0, scale, -vx * scale, -vy * scale);
  else ctx.setTransform(scale, 0, 0, -scale, -vx * scale, (vy + vh) * scale);
  ctx.lineCap = "round"; ctx.lineJoin = "round";
  for (const shape of H.staticShapes) drawShape(shape, null, rgba(shape.fill));
  const poses = [];
  for (let b = 0; b < B; b++) {
    poses.push(pose(b, i, u));
    const state = states[b * F + i];
    if (state === BodyState.absent) continue;
    const alpha = opacity ? opacity[b * F + i] : 255;
    for (const shape of H.bodies[b].shapes) drawShape(shape, poses[b], fillOf(shape, state, alpha));
  }
  if (showConstraints) {
    ctx.strokeStyle = CONSTRAINT; ctx.lineWidth = 1 / scale;
    H.constraints.forEach((c, k) => {
      if (!present[k * F + i]) return;
      const gone = b => b >= 0 && states[b * F + i] === BodyState.absent;
      if (gone(c.a) || gone(c.b)) return;
      const at = n => {
        const here = (k * F + i) * 6 + 2 * n;
        if (u === 0 || i + 1 >= F || !present[k * F + i + 1]) return [constraintPoints[here], constraintPoints[here + 1]];
        const there = here + 6;
        return [constraintPoints[here] + (constraintPoints[there] - constraintPoints[here]) * u,
                constraintPoints[here + 1] + (constraintPoints[there + 1] - constraintPoints[here + 1]) * u];
      };
      const pa = at(0), pb = at(1);
      if (c.type === "groove") {
        ctx.beginPath(); ctx.moveTo(...pa); ctx.lineTo(...pb); ctx.stroke(); dot(...at(2), CONSTRAINT);
        return;
      }
      if (c.type !== "pivot") { ctx.beginPath(); ctx.moveTo(...pa); ctx.lineTo(...pb); ctx.stroke(); }
      dot(...pa, CONSTRAINT); dot(...pb, CONSTRAINT);
    });
  }
  if (showContacts) {
    ctx.strokeStyle = CONTACT; ctx.lineWidth = 1 / scale;
    for (let k = contactStart[i]; k < contactStart[i + 1]; k++) {
      const x = contacts[4 * k], y = contacts[4 * k + 1];
      dot(x, y, CONTACT);
      ctx.beginPath(); ctx.moveTo(x, y);
      ctx.lineTo(x + contacts[4 * k + 2] * 8 / scale, y + contacts[4 * k + 3] * 8 / scale); ctx.stroke();
    }
  }
  const shown = Math.round(playhead);
  clock.textContent = `t = ${((playhead - steps[0]) * H.timeStep).toFixed(3)} s · step ${shown} of ${steps[F - 1]}`;
  scrub.value = shown;
  playButton.textContent = playing ? "❚❚ Pause" : "▶ Play";
  document.body.dataset.step = String(shown);
  if (hover) showTip();
}

// Real time: the playhead moves by the wall clock's seconds times the speed, whatever
// the display's frame rate, and draw() interpolates between the recorded steps.
// Animation frames drive playback; a timer stands in where none come (a hidden tab,
// a headless browser), and whichever fires first cancels the other.
let frameRequest = 0, fallbackTimer = 0;
function schedule() {
  frameRequest = requestAnimationFrame(tick);
  fallbackTimer = setTimeout(tick, 20);
}
function tick() {
  cancelAnimationFrame(frameRequest); clearTimeout(fallbackTimer);
  if (!playing) return;
  // One clock for both sources: an animation frame's own timestamp can run ahead of it.
  const now = performance.now();
  if (lastTime !== null) {
    playhead += (now - lastTime) / 1000 * speed / H.timeStep;
    if (playhead >= steps[F - 1]) { playhead = steps[F - 1]; playing = false; }
  }
  lastTime = now;
  draw();
  if (playing) schedule();
}
function play() {
  if (playhead >= steps[F - 1]) playhead = steps[0];
  playing = true; lastTime = null; schedule(); draw();
}
function pause() { playing = false; draw(); }
function seek(step) { playing = false; playhead = Math.min(Math.max(Number(step), steps[0]), steps[F - 1]); draw(); }
function stepBy(n) {
  const [i, u] = locate(playhead);
  const base = n < 0 && u > 0 ? i + 1 : i;
  seek(steps[Math.min(Math.max(base + n, 0), F - 1)]);
}

// Hover: the body under the pointer, and its recorded values at the step shown.
function hit(b, wx, wy, p) {
  const c = Math.cos(p[2]), s = Math.sin(p[2]);
  const lx = (wx - p[0]) * c + (wy - p[1]) * s, ly = -(wx - p[0]) * s + (wy - p[1]) * c;
  return H.bodies[b].shapes.some(shape => {
    const q = shape.points, r = shape.radius;
    if (shape.type === "circle") return Math.hypot(lx - q[0], ly - q[1]) <= r;
    const near = (ax, ay, bx, by) => {
      const dx = bx - ax, dy = by - ay, l = dx * dx + dy * dy;
      const t = l > 0 ? Math.min(Math.max(((lx - ax) * dx + (ly - ay) * dy) / l, 0), 1) : 0;
      return Math.hypot(lx - ax - dx * t, ly - ay - dy * t) <= Math.max(r, 2 / scale);
    };
    if (shape.type === "segment") return near(q[0], q[1], q[2], q[3]);
    const n = q.length / 2;
    let inside = n >= 3;
    for (let j = 0; j < n && inside; j++) {
      const k = (j + 1) % n;
      if ((q[2 * k] - q[2 * j]) * (ly - q[2 * j + 1]) - (q[2 * k + 1] - q[2 * j + 1]) * (lx - q[2 * j]) < 0) inside = false;
    }
    if (inside) return true;
    for (let j = 0; j < n; j++) { const k = (j + 1) % n; if (near(q[2 * j], q[2 * j + 1], q[2 * k], q[2 * k + 1])) return true; }
    return false;
  });
}
function showTip() {
  const [i, u] = locate(playhead);
  const wx = vx + hover.x / scale, wy = H.yPointsDown ? vy + hover.y / scale : vy + vh - hover.y / scale;
  let found = -1;
  for (let b = B - 1; b >= 0 && found < 0; b--) {
    if (states[b * F + i] !== BodyState.absent && hit(b, wx, wy, pose(b, i, u))) found = b;
  }
  if (found < 0) { tip.hidden = true; return; }
  const frame = u > 0.5 && i + 1 < F ? i + 1 : i;
  const k = (found * F + frame) * QUANTITIES, body = H.bodies[found];
  const g = q => Number(samples[k + q]).toPrecision(6);
  const state = { [BodyState.awake]: "awake", [BodyState.idle]: "idle", [BodyState.asleep]: "asleep",
                  [BodyState.absent]: "removed" }[states[found * F + frame]];
  const { x, y, angle, vx: qvx, vy: qvy, w } = Quantity;
  tip.textContent = `${body.id} (${body.kind}, ${state}) at step ${steps[frame]}\n` +
    `position  ${g(x)}, ${g(y)}\nangle     ${g(angle)} rad\nvelocity  ${g(qvx)}, ${g(qvy)}\nspin      ${g(w)} rad/s` +
    (opacity ? `\nalpha     ${(opacity[found * F + frame] / 255).toFixed(2)}` : "");
  tip.style.left = `${hover.clientX + 14}px`; tip.style.top = `${hover.clientY + 14}px`;
  tip.hidden = false;
}
canvas.addEventListener("mousemove", e => {
  const r = canvas.getBoundingClientRect();
  hover = { x: e.clientX - r.left, y: e.clientY - r.top, clientX: e.clientX, clientY: e.clientY };
  showTip();
});
canvas.addEventListener("mouseleave", () => { hover = null; tip.hidden = true; });

playButton.onclick = () => playing ? pause() : play();
$("back").onclick = () => stepBy(-1);
$("forward").onclick = () => stepBy(1);
scrub.oninput = () => seek(scrub.value);
$("speed").onchange = e => { speed = Number(e.target.value); };
$("constraints").onchange = e => { showConstraints = e.target.checked; draw(); };
$("contacts").onchange = e => { showContacts = e.target.checked; draw(); };
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === " ") { e.preventDefault(); playing ? pause() : play(); }
  else if (e.key === "ArrowRight") stepBy(1);
  else if (e.key === "ArrowLeft") stepBy(-1);
});

const options = new URLSearchParams(location.hash.slice(1));
if (options.has("speed")) {
  speed = Math.min(Math.max(Number(options.get("speed")) || 1, 0.25), 4);
  $("speed").value = String(speed);
}
showContacts = options.get("contacts") === "1"; $("contacts").checked = showContacts;
showConstraints = options.get("constraints") !== "0"; $("constraints").checked = showConstraints;
window.replay = { seek, play, pause, stepBy, state: () => ({ step: Math.round(playhead), playing, speed, clock: lastTime }),
                  payload };
if (options.has("step")) seek(options.get("step")); else draw();
if (options.has("play")) play();
document.body.dataset.ready = "1";
})().catch(error => {
  document.body.dataset.error = String(error);
  document.getElementById("about").textContent = "This replay could not be read: " + error;
});
