(function () {
  const H = JSON.parse(document.getElementById('comparison-header').textContent);
  const raw = atob(document.getElementById('comparison-data').textContent.trim());
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  const poses = new Float32Array(bytes.buffer);
  const frames = H.steps.length, n = H.bodies, half = frames * n * 3;
  const canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
  const [vx, vy, vw, vh] = H.view;
  const width = Math.round(Math.min(800, 600 * vw / vh)), height = Math.max(1, Math.round(vh * width / vw));
  canvas.width = width; canvas.height = height;
  const scale = width / vw;
  const scrub = document.getElementById('scrub'), clock = document.getElementById('clock');
  const playButton = document.getElementById('play');
  scrub.max = String(Math.max(0, frames - 1));
  const divergent = new Set(H.divergentBodies);
  const first = H.firstDivergentStep;
  document.body.dataset.firstDivergentStep = first == null ? '' : String(first);
  let frame = 0, timer = null;
  function toScreen(ctx) {
    if (H.yPointsDown) ctx.setTransform(scale, 0, 0, scale, -vx * scale, -vy * scale);
    else ctx.setTransform(scale, 0, 0, -scale, -vx * scale, (vy + vh) * scale);
  }
  function rgba(c) { return 'rgba(' + [c[0] * 255, c[1] * 255, c[2] * 255, c[3]].join(',') + ')'; }
  function shapePath(s) {
    ctx.beginPath();
    const p = s.points;
    if (s.type === 'circle') {
      ctx.arc(p[0], p[1], Math.max(s.radius, 0), 0, 2 * Math.PI);
    } else if (s.type === 'segment') {
      ctx.moveTo(p[0], p[1]); ctx.lineTo(p[2], p[3]);
    } else {
      for (let i = 0; i + 1 < p.length; i += 2) { if (i) ctx.lineTo(p[i], p[i + 1]); else ctx.moveTo(p[i], p[i + 1]); }
      ctx.closePath();
    }
  }
  function drawShape(s, fill, stroke, lineWidth) {
    shapePath(s);
    if (s.type === 'segment') {
      ctx.lineCap = 'round';
      ctx.lineWidth = Math.max(2 * s.radius, 1 / scale);
      ctx.strokeStyle = fill || stroke; ctx.stroke();
      if (fill && stroke) { ctx.lineWidth = lineWidth / scale; ctx.strokeStyle = stroke; ctx.stroke(); }
      return;
    }
    if (fill) { ctx.fillStyle = fill; ctx.fill(); }
    if (stroke) { ctx.lineWidth = lineWidth / scale; ctx.strokeStyle = stroke; ctx.stroke(); }
  }
  function drawBody(side, index, style) {
    const k = side * half + (frame * n + index) * 3;
    const x = poses[k], y = poses[k + 1], a = poses[k + 2];
    if (!isFinite(x) || !isFinite(y) || !isFinite(a)) return false;
    toScreen(ctx);
    ctx.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), x, y);
    const shapes = H.shapes[index] || [];
    if (shapes.length === 0) {
      ctx.beginPath(); ctx.arc(0, 0, 4 / scale, 0, 2 * Math.PI);
      if (style.fill) { ctx.fillStyle = '#666'; ctx.fill(); }
      if (style.stroke) { ctx.lineWidth = style.width / scale; ctx.strokeStyle = style.stroke; ctx.stroke(); }
      return true;
    }
    for (const s of shapes) drawShape(s, style.fill ? rgba(s.fill) : null, style.stroke, style.width);
    return true;
  }
  function draw() {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    toScreen(ctx);
    for (const s of H.staticShapes) drawShape(s, rgba(s.fill), null, 1);
    const step = H.steps[frame];
    const diverged = first != null && step >= first;
    let outlines = 0, highlighted = 0;
    for (let i = 0; i < n; i++) drawBody(0, i, { fill: true, stroke: null, width: 1 });
    for (let i = 0; i < n; i++) if (drawBody(1, i, { fill: false, stroke: '#1565c0', width: 1.5 })) outlines++;
    if (diverged) {
      for (const i of divergent) {
        if (drawBody(0, i, { fill: false, stroke: '#d32f2f', width: 3 })) highlighted++;
        drawBody(1, i, { fill: false, stroke: '#d32f2f', width: 3 });
      }
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    scrub.value = String(frame);
    clock.textContent = frames ? 'step ' + step + (diverged ? ' (diverged)' : '') : 'no steps';
    const cursor = document.getElementById('chart-cursor'), line = document.getElementById('chart-first');
    if (cursor && frames > 1) {
      const x0 = 56, x1 = 792, s0 = H.steps[0], s1 = Math.max(H.steps[frames - 1], s0 + 1);
      const cx = (x0 + (x1 - x0) * (step - s0) / (s1 - s0)).toFixed(1);
      cursor.setAttribute('x1', cx); cursor.setAttribute('x2', cx);
    }
    Object.assign(document.body.dataset, { step: String(step), outlines: String(outlines), highlighted: String(highlighted) });
  }
  function nearest(step) {
    let best = 0;
    for (let i = 0; i < frames; i++) if (Math.abs(H.steps[i] - step) < Math.abs(H.steps[best] - step)) best = i;
    return best;
  }
  function seek(step) { pause(); frame = nearest(step); draw(); }
  function pause() { if (timer) clearInterval(timer); timer = null; playButton.textContent = '▶ Play'; }
  function play() {
    if (timer || frames < 2) return;
    if (frame >= frames - 1) frame = 0;
    playButton.textContent = '❚❚ Pause';
    timer = setInterval(function () {
      if (frame >= frames - 1) { pause(); return; }
      frame++; draw();
    }, Math.max(4, 1000 * H.timeStep));
  }
  playButton.addEventListener('click', function () { if (timer) pause(); else play(); });
  scrub.addEventListener('input', function () { pause(); frame = Number(scrub.value); draw(); });
  window.comparison = {
    seek: seek, play: play, pause: pause,
    state: function () { return { step: H.steps[frame], frame: frame, playing: timer != null }; },
    firstDivergentStep: first
  };
  const wanted = /(?:^|[#&])step=(\d+)/.exec(location.hash);
  if (wanted) frame = nearest(Number(wanted[1]));
  else if (first != null) frame = nearest(first);
  if (frames) draw();
  document.body.dataset.ready = '1';
})();
