// minotty's live watching: the server sends the watched game's frames over a WebSocket (JSON,
// at most ten a second) and this draws them; the page sends nothing.
"use strict";

(() => {
  const { piece, field } = window.MinottyBoard;
  const root = document.getElementById("live");
  if (!root) return;
  const canvas = document.getElementById("field");
  const ctx = canvas.getContext("2d");
  const status = document.getElementById("status");
  const title = document.getElementById("title");
  const CELL = 24;
  const SIDE = 5 * CELL;
  const say = (text) => { status.textContent = text; };

  function clear() {
    ctx.fillStyle = "#101418";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }

  function text(s, x, y, colour) {
    ctx.fillStyle = colour || "#9aa4ad";
    ctx.fillText(String(s), x, y);
  }

  const code = (cells, i) => cells.charCodeAt(i) - 48;

  function solo(f) {
    clear();
    ctx.font = "16px ui-monospace, monospace";
    const rows = f.rows;
    field(ctx, SIDE, 0, 10, rows, 0, CELL, (r, c) => code(f.cells, r * 10 + c));
    text("HOLD", 12, 20);
    if (f.hold) piece(ctx, f.hold, 12, 36, 20, false);
    text("NEXT", SIDE + 10 * CELL + 12, 20);
    f.next.forEach((p, i) => piece(ctx, p, SIDE + 10 * CELL + 12, 36 + i * 60, 20, false));
    [["LINES", f.lines], ["PIECES", f.pieces], ["LEVEL", f.level], ["TIME", f.time],
      ["SCORE", f.score.toLocaleString("en")]].forEach(([label, value], i) => {
      text(label, 12, 150 + i * 48);
      text(value, 12, 170 + i * 48, "#e6e6e6");
    });
    title.textContent = `${f.player} · ${f.mode}`;
    root.dataset.lines = String(f.lines);
    root.dataset.pieces = String(f.pieces);
    root.dataset.player = f.player;
  }

  function match(m) {
    clear();
    const n = Math.max(1, m.boards.length);
    const size = Math.max(4, Math.floor(canvas.width / (n * 11)));
    ctx.font = `${Math.min(16, size)}px ui-monospace, monospace`;
    m.boards.forEach((b, i) => {
      const x = i * 11 * size + Math.floor(size / 2);
      text(b.name, x, size, b.alive ? "#e6e6e6" : "#9aa4ad");
      field(ctx, x, size * 2, 10, b.rows, 0, size, (r, c) => code(b.cells, r * 10 + c));
      if (!b.alive) text(b.place ? `#${b.place}` : "out", x, size * 2 + b.rows * size + size);
    });
    title.textContent = m.boards.map((b) => b.name).join(" vs ");
    root.dataset.player = m.boards.map((b) => b.name).join(",");
  }

  const url = new URL(root.dataset.socket, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  let ended = false;
  socket.addEventListener("message", (e) => {
    let f;
    try { f = JSON.parse(e.data); } catch { return; }
    if (f.kind === "solo") solo(f);
    else if (f.kind === "match") match(f);
    else if (f.kind === "parked") {
      root.dataset.state = "parked";
      say("The player's connection dropped: the game waits for them to come back.");
      return;
    } else if (f.kind === "ended") {
      ended = true;
      root.dataset.state = "ended";
      say("The game has ended.");
      return;
    }
    if (root.dataset.state !== "watching") {
      root.dataset.state = "watching";
      say("Watching live.");
    }
  });
  socket.addEventListener("close", (e) => {
    if (ended) return;
    root.dataset.state = "closed";
    say(e.reason ? `Stopped: ${e.reason}` : "The game is no longer being played, or cannot be watched now.");
  });
})();
