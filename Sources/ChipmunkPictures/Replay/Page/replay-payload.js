"use strict";
// The replay player's payload: what Playback.payload(view:) in Swift writes, section by
// section, and decodeReplayPayload reads back. PayloadLayout in Playback.swift names the
// same things (Quantity, BodyState); every number is a zigzag LEB128 varint of a value,
// quantised on the header's grid, less its prediction.

// A body's sampled quantities, in their order in the payload: six a frame.
const Quantity = Object.freeze({ x: 0, y: 1, angle: 2, vx: 3, vy: 4, w: 5 });
const QUANTITIES = 6;
// Positions and angles are predicted from the two frames before, velocities from one.
const PREDICTED_FROM_TWO_FRAMES = [true, true, true, false, false, false];
// The grid each quantity is quantised on.
const QUANTITY_GRID = [G => G.position, G => G.position, G => G.angle, G => G.velocity, G => G.velocity,
                       G => G.velocity];
// A body's state byte, one a frame.
const BodyState = Object.freeze({ awake: 0, idle: 1, asleep: 2, absent: 3 });

// The inflated payload `raw` (a Uint8Array) read with the page's header H: the recorded
// steps; per body, per frame, its quantities (samples) and BodyState (states); per
// constraint, per frame, whether it is there (present) and its three points; per body,
// per frame, its opacity in 255ths when H.opacity; and the contacts (x, y, normal x,
// normal y), contactCounts a frame, the first of each frame at contactStart.
function decodeReplayPayload(raw, H) {
  const F = H.frames, B = H.bodies.length, C = H.constraints.length, G = H.grid;
  let at = 0;
  const next = () => {
    let value = 0, scale = 1, byte;
    do { byte = raw[at++]; value += (byte & 0x7f) * scale; scale *= 128; } while (byte & 0x80);
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  };
  const steps = new Float64Array(F);
  for (let i = 0, s = 0; i < F; i++) { s += next(); steps[i] = s; }
  const samples = new Float64Array(B * F * QUANTITIES);   // body-major, then frame, then Quantity
  for (let b = 0; b < B; b++) {
    for (let q = 0; q < QUANTITIES; q++) {
      const grid = QUANTITY_GRID[q](G);
      let older = 0, old = 0;
      for (let i = 0; i < F; i++) {
        const prediction = PREDICTED_FROM_TWO_FRAMES[q] ? (i === 0 ? 0 : i === 1 ? old : 2 * old - older) : old;
        const value = next() + prediction;
        samples[(b * F + i) * QUANTITIES + q] = value * grid;
        older = old; old = value;
      }
    }
  }
  const states = raw.slice(at, at += B * F);      // a BodyState per body per frame
  const present = raw.slice(at, at += C * F);
  const opacity = H.opacity ? raw.slice(at, at += B * F) : null;  // 255ths, per body per frame
  const constraintPoints = new Float64Array(C * F * 6);  // per constraint, per frame: 3 points
  for (let c = 0; c < C; c++) {
    for (let q = 0; q < 6; q++) {
      let older = 0, old = 0;
      for (let i = 0; i < F; i++) {
        const value = next() + (i === 0 ? 0 : i === 1 ? old : 2 * old - older);
        constraintPoints[(c * F + i) * 6 + q] = value * G.position;
        older = old; old = value;
      }
    }
  }
  const contactCounts = new Uint32Array(F);
  for (let i = 0; i < F; i++) contactCounts[i] = next();
  const contacts = new Float32Array(H.contacts * 4);
  for (let i = 0, k = 0, previous = [], start = 0; i < F; i++) {
    const current = [];
    for (let j = 0; j < contactCounts[i]; j++, k++) {
      for (let n = 0; n < 3; n++) current.push(next() + (j * 3 + n < previous.length ? previous[j * 3 + n] : 0));
      const turn = current[j * 3 + 2] / 256 * 2 * Math.PI;
      contacts.set([H.view[0] + current[j * 3] * G.contact, H.view[1] + current[j * 3 + 1] * G.contact,
                    Math.cos(turn), Math.sin(turn)], 4 * k);
    }
    previous = current;
  }
  const contactStart = new Uint32Array(F + 1);
  for (let i = 0; i < F; i++) contactStart[i + 1] = contactStart[i] + contactCounts[i];
  return { steps, samples, states, present, opacity, constraintPoints, contactCounts, contacts, contactStart };
}
