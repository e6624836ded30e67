// minotty's replay player: the engine built to WebAssembly (web/player) re-simulates the
// stored replay in the page and hands back one frame at a time, drawn here on the canvas.
// The frame's word offsets are web/player/src/frame.rs's constants (a test checks they match).
"use strict";

(() => {
  const LAYOUT = 1;
  const HEADER = 24;
  const W_LAYOUT = 0, W_WIDTH = 1, W_ROWS = 2, W_TIME = 3, W_END = 4, W_LINES = 5;
  const W_SCORE_LOW = 6, W_SCORE_HIGH = 7, W_PIECES = 8, W_LEVEL = 9, W_ATTACK = 10;
  const W_HOLD = 11, W_PREVIEW_COUNT = 12, W_PREVIEW = 13, W_OVER = 19, W_CLEARING = 20;
  const ACTIVE = 16, GHOST = 32, HOLD_USED = 8;
  const ROWS_ABOVE = 2;
  const OPENED = 0, MALFORMED = 1;

  const { piece: drawPiece, field } = window.MinottyBoard;
  const CELL = 24;
  const SIDE = 5 * CELL;

  const root = document.getElementById("replay");
  if (!root) return;
  const canvas = document.getElementById("field");
  const ctx = canvas.getContext("2d");
  const play = document.getElementById("play");
  const seek = document.getElementById("seek");
  const clock = document.getElementById("clock");
  const speed = document.getElementById("speed");
  const status = document.getElementById("status");

  let exports = null;
  let words = 0;
  let end = 0;
  let now = 0;
  let playing = false;
  let last = 0;

  const say = (text) => { status.textContent = text; };
  const fail = (text) => { root.dataset.state = "failed"; say(text); play.disabled = true; seek.disabled = true; };

  function time(ms) {
    const m = Math.floor(ms / 60000);
    const s = Math.floor(ms / 1000) % 60;
    return `${m}:${String(s).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
  }

  async function bytes(url) {
    const answer = await fetch(url, { credentials: "same-origin" });
    if (!answer.ok) throw new Error(`${url}: ${answer.status}`);
    return answer.arrayBuffer();
  }

  function piece(code, x, y, size, dim) {
    drawPiece(ctx, code, x, y, size, dim);
  }

  function draw(f) {
    const width = f[W_WIDTH], rows = f[W_ROWS];
    ctx.fillStyle = "#101418";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    field(ctx, SIDE, 0, width, rows, ROWS_ABOVE, CELL,
      (r, c) => f[HEADER + r * width + c], (r) => ((f[W_CLEARING] >>> r) & 1) === 1);
    ctx.fillStyle = "#9aa4ad";
    ctx.font = "16px ui-monospace, monospace";
    ctx.fillText("HOLD", 12, 20);
    ctx.fillText("NEXT", SIDE + width * CELL + 12, 20);
    const hold = f[W_HOLD];
    if (hold & 7) piece(hold & 7, 12, 36, 20, (hold & HOLD_USED) !== 0);
    for (let i = 0; i < f[W_PREVIEW_COUNT] && i < 5; i++) {
      piece(f[W_PREVIEW + i], SIDE + width * CELL + 12, 36 + i * 60, 20, false);
    }
    const score = f[W_SCORE_HIGH] * 4294967296 + f[W_SCORE_LOW];
    const lines = [["LINES", f[W_LINES]], ["PIECES", f[W_PIECES]], ["LEVEL", f[W_LEVEL]],
      ["ATTACK", f[W_ATTACK]], ["SCORE", score.toLocaleString("en")]];
    lines.forEach(([label, value], i) => {
      ctx.fillStyle = "#9aa4ad";
      ctx.fillText(label, 12, 150 + i * 48);
      ctx.fillStyle = "#e6e6e6";
      ctx.fillText(String(value), 12, 170 + i * 48);
    });
    if (f[W_OVER]) {
      ctx.fillStyle = "rgba(16, 20, 24, 0.7)";
      ctx.fillRect(SIDE, 10 * CELL, width * CELL, 2 * CELL);
      ctx.fillStyle = "#e6e6e6";
      ctx.fillText(f[W_OVER] === 1 ? "FINISHED" : "GAME OVER", SIDE + 70, 11 * CELL + 6);
    }
  }

  function boardText() {
    const at = exports.mt_text();
    const len = exports.mt_text_len();
    return new TextDecoder().decode(new Uint8Array(exports.memory.buffer, at, len));
  }

  // Moves the replay to `t` and draws it.
  function show(t) {
    t = Math.max(0, Math.min(end, Math.floor(t)));
    // The call first: it may grow the memory, which detaches the buffer read before it.
    const at = exports.mt_seek(t);
    const f = new Uint32Array(exports.memory.buffer, at, words);
    now = f[W_TIME];
    draw(f);
    seek.value = String(now);
    clock.textContent = `${time(now)} / ${time(end)}`;
    root.dataset.time = String(now);
    root.dataset.lines = String(f[W_LINES]);
    root.dataset.pieces = String(f[W_PIECES]);
    if (now >= end) {
      root.dataset.state = "ended";
      root.dataset.board = boardText();
      stop();
      say(`The end: ${f[W_LINES]} lines, ${f[W_PIECES]} pieces in ${time(end)}.`);
    } else if (!playing) {
      root.dataset.state = "paused";
    }
  }

  function frame(at) {
    if (!playing) return;
    // A frame's time can be a little before the moment play was pressed.
    const step = Math.max(0, at - last) * Number(speed.value);
    last = Math.max(last, at);
    show(Math.min(end, Math.round(now + step)));
    if (playing) requestAnimationFrame(frame);
  }

  function start() {
    if (now >= end) show(0);
    playing = true;
    root.dataset.state = "playing";
    play.textContent = "Pause";
    say("Playing.");
    last = performance.now();
    requestAnimationFrame(frame);
  }

  function stop() {
    playing = false;
    play.textContent = now >= end ? "Again" : "Play";
  }

  function toggle() {
    if (playing) { stop(); root.dataset.state = "paused"; say("Paused."); } else start();
  }

  async function open() {
    let module, replay;
    try {
      [module, replay] = await Promise.all([bytes(root.dataset.module), bytes(root.dataset.replay)]);
    } catch (e) {
      fail(`The replay could not be loaded (${e.message}); reload the page to try again.`);
      return;
    }
    const { instance } = await WebAssembly.instantiate(module, {});
    exports = instance.exports;
    const at = exports.mt_buffer(replay.byteLength);
    if (at === 0) { fail("This replay is too long to play here."); return; }
    new Uint8Array(exports.memory.buffer, at, replay.byteLength).set(new Uint8Array(replay));
    const opened = exports.mt_open();
    if (opened !== OPENED) {
      fail(opened === MALFORMED ? "The replay is damaged." : "This replay was recorded by a later version of the rules.");
      return;
    }
    end = exports.mt_end();
    const first = exports.mt_seek(0);
    const probe = new Uint32Array(exports.memory.buffer, first, HEADER);
    if (probe[W_LAYOUT] !== LAYOUT) { fail("The replay player and this page do not match; reload the page."); return; }
    words = HEADER + probe[W_WIDTH] * probe[W_ROWS];
    if (probe[W_END] !== end) { fail("The replay player answered nonsense."); return; }
    seek.max = String(end);
    seek.disabled = false;
    play.disabled = false;
    const from = root.dataset.start === "end" ? end : Math.min(end, Number(root.dataset.start) || 0);
    say("Ready: press Play.");
    show(from);
  }

  play.addEventListener("click", toggle);
  seek.addEventListener("input", () => { if (exports) show(Number(seek.value)); });
  document.addEventListener("keydown", (e) => {
    if (!exports || e.target === speed || e.ctrlKey || e.metaKey || e.altKey) return;
    const jump = e.shiftKey ? 10000 : 1000;
    if (e.key === " ") { e.preventDefault(); toggle(); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); show(Math.max(0, now - jump)); }
    else if (e.key === "ArrowRight") { e.preventDefault(); show(Math.min(end, now + jump)); }
  });
  open().catch((e) => fail(`The replay player stopped: ${e.message}`));
})();
