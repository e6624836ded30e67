// minotty in the browser: xterm.js (vendored) over a WebSocket into the server's session
// loop. Binary messages are the terminal's bytes both ways; a text message tells the window's
// size.
"use strict";

(() => {
  const root = document.getElementById("play");
  if (!root || !window.Terminal) return;
  const status = document.getElementById("status");
  const say = (text) => { status.textContent = text; };
  const term = new window.Terminal({
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
    fontSize: 15,
    cursorBlink: false,
    scrollback: 0,
    allowProposedApi: false,
    // The kitty keyboard protocol (xterm.js 6.1): the server pushes flags 1 + 2 + 8, so the
    // browser reports every press and release, and held keys shift exactly as in kitty or
    // foot. Without it the server falls back as it does for plain terminals.
    vtExtensions: { kittyKeyboard: true },
  });
  // For the page's own tests (the terminal's buffer, read as a player sees it).
  window.minottyTerm = term;
  const fit = new window.FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(document.getElementById("terminal"));
  fit.fit();
  const url = new URL(root.dataset.socket, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("cols", String(term.cols));
  url.searchParams.set("rows", String(term.rows));
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  const encoder = new TextEncoder();
  // The server takes messages of at most 4 KiB: a long paste goes in pieces.
  const MAX = 4096;

  socket.addEventListener("open", () => {
    root.dataset.state = "playing";
    say("Connected: the game has the keyboard while the terminal has focus.");
    term.focus();
  });
  socket.addEventListener("message", (e) => {
    if (e.data instanceof ArrayBuffer) term.write(new Uint8Array(e.data));
  });
  socket.addEventListener("close", (e) => {
    root.dataset.state = "closed";
    say(e.reason ? `The session ended: ${e.reason}. Reload the page to play again.` : "The connection closed. Reload the page to play again.");
  });
  term.onData((data) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    const bytes = encoder.encode(data);
    for (let i = 0; i < bytes.length; i += MAX) socket.send(bytes.subarray(i, i + MAX));
  });
  term.onBinary((data) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    const bytes = Uint8Array.from(data, (c) => c.charCodeAt(0) & 255);
    for (let i = 0; i < bytes.length; i += MAX) socket.send(bytes.subarray(i, i + MAX));
  });
  term.onResize(({ cols, rows }) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ cols, rows }));
  });
  window.addEventListener("resize", () => fit.fit());
})();
