// minotty's board drawing, shared by the replay and the live pages: cells coded as the engine
// and the protocol code them (0 empty, 1 to 7 the pieces I, O, T, S, Z, J, L, 8 garbage; plus
// 16 the piece in play, plus 32 its ghost).
"use strict";

window.MinottyBoard = (() => {
  const COLOURS = [null, "#00c8e0", "#e8d000", "#a040e0", "#30c040", "#e03030", "#3060e8", "#f08020", "#707880"];
  // Each piece's cells as it spawns, in a 4x2 box.
  const SHAPES = [null,
    [[0, 1], [1, 1], [2, 1], [3, 1]], [[1, 0], [2, 0], [1, 1], [2, 1]], [[1, 0], [0, 1], [1, 1], [2, 1]],
    [[1, 0], [2, 0], [0, 1], [1, 1]], [[0, 0], [1, 0], [1, 1], [2, 1]], [[0, 0], [0, 1], [1, 1], [2, 1]],
    [[2, 0], [0, 1], [1, 1], [2, 1]]];
  const GHOST = 32;

  function block(ctx, x, y, code, size) {
    const colour = COLOURS[code & 15] || COLOURS[8];
    if (code >= GHOST) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 2, y + 2, size - 4, size - 4);
      return;
    }
    ctx.fillStyle = colour;
    ctx.fillRect(x + 1, y + 1, size - 2, size - 2);
  }

  function piece(ctx, code, x, y, size, dim) {
    const shape = SHAPES[code & 7];
    if (!shape) return;
    ctx.globalAlpha = dim ? 0.4 : 1;
    for (const [dx, dy] of shape) block(ctx, x + dx * size, y + dy * size, code & 7, size);
    ctx.globalAlpha = 1;
  }

  // A field of `width` x `rows` cells at (x, y); `cell(r, c)` gives a cell's code, `top` rows
  // are above the visible field (drawn on the page's background).
  function field(ctx, x, y, width, rows, top, size, cell, flash) {
    ctx.fillStyle = "#0a0d10";
    ctx.fillRect(x, y + top * size, width * size, (rows - top) * size);
    ctx.strokeStyle = "#2a333c";
    ctx.lineWidth = 1;
    ctx.strokeRect(x - 0.5, y + top * size - 0.5, width * size + 1, (rows - top) * size + 1);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < width; c++) {
        const code = cell(r, c);
        if (flash && flash(r)) {
          ctx.fillStyle = "#e6e6e6";
          ctx.fillRect(x + c * size + 1, y + r * size + 1, size - 2, size - 2);
        } else if (code) {
          block(ctx, x + c * size, y + r * size, code, size);
        }
      }
    }
  }

  return { block, piece, field };
})();
