// The script of bgcli's match page (bgcli.render.view): it reads only the page itself.
// Each row carries its Position ID and Match ID; the board of the selected row is drawn
// here from them, element for element as bgcli.render.board.svg_board draws it (the
// tests compare the two texts), so the page holds no picture per row.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("boards").textContent);
  var G = data.geometry, C = data.colours;
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.step"));
  var board = document.getElementById("board");
  var current = -1;
  var RESIGNS = ["single game", "gammon", "backgammon"];

  // --- the identifiers ----------------------------------------------------------
  // Fenced mirror of bgcli.core.ids (parse_match_id, _MATCH_FIELDS) and Position.from_id, from here to
  // "end of the fenced mirror": the page decodes the IDs bgcli wrote, with no picture per row.
  // tests/test_view_ids.py::test_the_page_reads_every_id_as_bgcli_does runs it in Chromium on generated IDs.
  var DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  function bits(text, bytes) {
    var out = [], acc = 0, have = 0;
    for (var i = 0; i < text.length && out.length < bytes * 8; i++) {
      acc = (acc << 6) | DIGITS.indexOf(text.charAt(i));
      have += 6;
      while (have >= 8) {
        have -= 8;
        var byte = (acc >> have) & 255;
        for (var b = 0; b < 8; b++) out.push((byte >> b) & 1);   // little-endian bits in each byte
      }
      acc &= (1 << have) - 1;
    }
    return out;
  }

  // Position ID: the opponent's 25 slots (points 1..24, bar) then the player's, each a run of 1s and a 0
  function position(pid) {
    var b = bits(pid, 10), sides = [[0], [0]], side = 0, count = 0;
    for (var i = 0; i < b.length && side < 2; i++) {
      if (b[i]) { count++; continue; }
      sides[side].push(count);
      count = 0;
      if (sides[side].length === 26) side++;
    }
    sides.forEach(function (s) { s[0] = 15 - s.slice(1).reduce(function (a, n) { return a + n; }, 0); });
    return {player: sides[1], opponent: sides[0]};
  }

  function matchState(mid) {
    var b = bits(mid, 9);
    function field(start, width) {
      var v = 0;
      for (var i = width - 1; i >= 0; i--) v = v * 2 + b[start + i];
      return v;
    }
    var owner = field(4, 2);
    return {cube: Math.pow(2, field(0, 4)), owner: owner === 3 ? -1 : owner, onRoll: field(6, 1),
            crawford: field(7, 1) === 1, gameState: field(8, 3), turn: field(11, 1), doubled: field(12, 1) === 1,
            resign: field(13, 2), dice: [field(15, 3), field(18, 3)], length: field(21, 15),
            score: [field(36, 15), field(51, 15)], jacoby: field(66, 1) === 0};
  }
  // end of the fenced mirror

  function pips(side) {
    var n = 0;
    for (var p = 1; p < 26; p++) n += p * side[p];
    return n;
  }

  // --- the SVG board, as svg_board writes it -----------------------------------
  function fmt(v) {   // one decimal, no trailing zero
    return v.toFixed(1).replace(/0+$/, "").replace(/\.$/, "");
  }
  function esc(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function points(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function cls(c) { return c ? ' class="' + c + '"' : ""; }

  function Svg(mirror) { this.mirror = mirror; this.parts = []; }
  Svg.prototype.x = function (x) { return this.mirror ? G.width - x : x; };
  Svg.prototype.rect = function (x, y, w, h, fill, c, extra) {
    var left = this.mirror ? G.width - x - w : x;
    this.parts.push("<rect" + cls(c) + ' x="' + fmt(left) + '" y="' + fmt(y) + '" width="' + fmt(w) + '" height="' +
                    fmt(h) + '" fill="' + fill + '"' + (extra || "") + "/>");
  };
  Svg.prototype.circle = function (cx, cy, r, fill, stroke, c, extra) {
    this.parts.push("<circle" + cls(c) + (extra || "") + ' cx="' + fmt(this.x(cx)) + '" cy="' + fmt(cy) + '" r="' + fmt(r) +
                    '" fill="' + fill + '" stroke="' + stroke + '" stroke-width="1.5"/>');
  };
  Svg.prototype.polygon = function (pts, fill, c) {
    var self = this;
    var text = pts.map(function (p) { return fmt(self.x(p[0])) + "," + fmt(p[1]); }).join(" ");
    this.parts.push("<polygon" + cls(c) + ' points="' + text + '" fill="' + fill + '"/>');
  };
  Svg.prototype.text = function (x, y, content, size, fill, c, extra, weight, anchor) {
    anchor = anchor || "middle";
    if (this.mirror && anchor !== "middle") anchor = anchor === "start" ? "end" : "start";
    this.parts.push("<text" + cls(c) + (extra || "") + ' x="' + fmt(this.x(x)) + '" y="' + fmt(y) + '" font-size="' + size +
                    '" fill="' + fill + '" font-weight="' + (weight || "normal") + '" text-anchor="' + anchor +
                    '" dominant-baseline="central">' + esc(content) + "</text>");
  };

  function pointX(p) {
    if (p <= 6) return G.right_half + (6 - p) * G.pw + G.pw / 2;
    if (p <= 12) return G.left_half + (12 - p) * G.pw + G.pw / 2;
    if (p <= 18) return G.left_half + (p - 13) * G.pw + G.pw / 2;
    return G.right_half + (p - 19) * G.pw + G.pw / 2;
  }

  function stack(svg, cx, first, step, count, side, label) {
    var data = ' data-point="' + label + '"';
    for (var i = 0; i < Math.min(count, 5); i++) {
      svg.circle(cx, first + i * step, G.r - 1, C[side], C[side + "-edge"], "checker " + side, data);
    }
    if (count > 5) svg.text(cx, first + 4 * step, String(count), 18, C[side === "x" ? "o" : "x"], "count", data, "bold");
  }

  function drawCube(svg, m) {
    var size = 44, cx = G.side / 2, value, cy, c;
    if (m.doubled) {
      value = m.cube * 2; cy = G.middle; c = "cube offered"; cx = G.left_half + G.half / 2;
    } else if (m.owner < 0) {
      value = m.cube; cy = G.middle; c = "cube centred";
    } else {
      value = m.cube; cy = m.owner ? G.play_bottom - size / 2 - 8 : G.play_top + size / 2 + 8; c = "cube owned";
    }
    if (m.length && m.crawford && m.owner < 0 && !m.doubled) return;   // no cube in the Crawford game
    var shown = value === 1 && c === "cube centred" ? 64 : value;
    svg.rect(cx - size / 2, cy - size / 2, size, size, "#fffdf6", c, ' stroke="#222" stroke-width="2" rx="6"');
    svg.text(cx, cy, String(shown), shown < 100 ? 20 : 15, "#111", "cube-value", "", "bold");
  }

  var SPOTS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
               5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};

  function drawDice(svg, m) {
    var side = m.onRoll === 1 ? "x" : "o";
    var fill = C[side], pip = side === "x" ? "#111" : "#eee", size = 40;
    var cx0 = side === "x" ? G.right_half + G.half / 2 - size / 2 - 6 : G.left_half + G.half / 2 - size / 2 - 6;
    m.dice.forEach(function (value, i) {
      var cx = cx0 + i * (size + 12);
      svg.rect(cx - size / 2, G.middle - size / 2, size, size, fill, "die " + side,
               ' stroke="#222" stroke-width="1.5" rx="7" data-value="' + value + '"');
      SPOTS[value].forEach(function (d) { svg.circle(cx + d[0] * size / 4, G.middle + d[1] * size / 4, 3.6, pip, pip, "spot"); });
    });
  }

  function drawBands(svg, b, pid, mid) {
    var m = b.m, mirror = svg.mirror;
    svg.mirror = false;   // text lines read left to right either way
    var count = {o: pips(b.o), x: pips(b.x)};
    [["o", 0, G.top_band / 2], ["x", 1, G.play_bottom + G.label + 16]].forEach(function (s) {
      var side = s[0], player = s[1], y = s[2];
      var parts = ["OX".charAt(player) + ": " + b.names[player]];
      if (m.length) parts.push(points(m.score[player], "point"));
      parts.push("pips " + count[side]);
      var doing = "";
      if (m.doubled && m.turn !== player) doing = "doubles to " + m.cube * 2;
      else if (!m.doubled && m.onRoll === player && m.gameState <= 1) doing = m.dice[0] ? "to play " + m.dice[0] + m.dice[1] : "on roll";
      if (m.resign && m.onRoll === player) doing = (doing ? doing + ", " : "") + "resigns " + RESIGNS[Math.min(m.resign, 3) - 1];
      if (doing) parts.push(doing);
      svg.circle(G.left_half - 28, y, 8, C[side], C[side + "-edge"], "key " + side);
      svg.text(G.left_half - 12, y, parts.join("  \u00b7  "), 16, C.text, "band " + side, "", "bold", "start");
    });
    var game = m.length ? m.length + "-point match" + (m.crawford ? ", Crawford game" : "")
                        : "money game" + (m.jacoby ? ", Jacoby rule" : "");
    var foot = game + "  \u00b7  Position ID " + pid + "  \u00b7  Match ID " + mid;
    svg.text(G.width / 2, G.height - 14, foot, 12, "#555", "foot");
    svg.mirror = mirror;
  }

  // the SVG text of a position (its Position ID and Match ID), as svg_board(state, home, size, names)
  function svgBoard(pid, mid, names, home) {
    var pos = position(pid), m = matchState(mid), xRoll = m.onRoll === 1;
    var b = {m: m, names: names, x: xRoll ? pos.player : pos.opponent, o: xRoll ? pos.opponent : pos.player};
    var svg = new Svg(home === "left");
    svg.rect(0, G.top_band, G.width, G.play_height + 2 * G.label, C.frame, "frame");
    svg.rect(G.left_half, G.play_top, G.half, G.play_height, C.felt, "felt");
    svg.rect(G.right_half, G.play_top, G.half, G.play_height, C.felt, "felt");
    svg.rect(G.bar_x, G.play_top, G.bar, G.play_height, C.bar, "bar");
    var trayX = G.right_half + G.half + 8, trayH = G.play_height / 2 - 20;
    svg.rect(trayX, G.play_top, G.side - 16, trayH, C.tray, "tray o");
    svg.rect(trayX, G.play_bottom - trayH, G.side - 16, trayH, C.tray, "tray x");
    function label(p) { return String(xRoll ? p : 25 - p); }
    var depth = 5 * 2 * G.r, p, cx, top;
    for (p = 1; p <= 24; p++) {
      cx = pointX(p); top = p >= 13;
      var base = top ? G.play_top : G.play_bottom, tip = top ? G.play_top + depth : G.play_bottom - depth;
      svg.polygon([[cx - G.pw / 2, base], [cx + G.pw / 2, base], [cx, tip]], p % 2 ? C.dark : C.light, "point");
      svg.text(cx, top ? G.play_top - G.label / 2 : G.play_bottom + G.label / 2, label(p), 13, C.label, "label",
               ' data-point="' + label(p) + '"', "bold");
    }
    for (p = 1; p <= 24; p++) {
      cx = pointX(p); top = p >= 13;
      var first = top ? G.play_top + G.r : G.play_bottom - G.r, step = top ? 2 * G.r : -2 * G.r;
      if (b.x[p]) stack(svg, cx, first, step, b.x[p], "x", label(p));
      else if (b.o[25 - p]) stack(svg, cx, first, step, b.o[25 - p], "o", label(p));
    }
    var barX = G.bar_x + G.bar / 2;
    stack(svg, barX, G.middle - 40 - G.r, -2 * G.r, b.o[25], "o", "bar");
    stack(svg, barX, G.middle + 40 + G.r, 2 * G.r, b.x[25], "x", "bar");
    var slab = (trayH - 8) / 15;
    [["o", b.o[0], true], ["x", b.x[0], false]].forEach(function (t) {
      var side = t[0], count = t[1], high = t[2];
      for (var i = 0; i < count; i++) {
        var y = high ? G.play_top + 4 + i * slab : G.play_bottom - 4 - (i + 1) * slab;
        svg.rect(trayX + 4, y + 0.5, G.side - 24, slab - 1, C[side], "off " + side,
                 ' stroke="' + C[side + "-edge"] + '" stroke-width="1" rx="2" data-point="off"');
      }
      if (count) {
        svg.text(trayX + (G.side - 16) / 2, high ? G.play_top + trayH + 9 : G.play_bottom - trayH - 9, count + " off", 11,
                 C.label, "offcount " + side);
      }
    });
    drawCube(svg, m);
    if (m.dice[0] && !m.doubled) drawDice(svg, m);
    drawBands(svg, b, pid, mid);
    return '<svg width="' + G.size + '" height="' + G.size_height + '" viewBox="0 0 ' + G.width + " " + G.height +
      '" font-family="DejaVu Sans, Verdana, Arial, sans-serif">\n<title>' + esc("backgammon position " + pid + ":" + mid) +
      '</title>\n<rect x="0" y="0" width="' + G.width + '" height="' + G.height + '" fill="#fbf8f1"/>\n' +
      svg.parts.join("\n") + "\n</svg>";
  }

  // --- the rows -------------------------------------------------------------------
  function names(row) { return data.names[+row.parentNode.dataset.match]; }

  // the board of row i: drawn from its IDs (the Match ID it is drawn with, when no Match ID carries its own state)
  function rowBoard(i) {
    var row = rows[i];
    if (row.dataset.noboard !== undefined) {
      return '<svg width="640" height="120" viewBox="0 0 640 120"><text x="20" y="60" font-size="16">no board: ' +
        esc(row.dataset.noboard) + "</text></svg>";
    }
    return svgBoard(row.dataset.pid, row.dataset.draw || row.dataset.mid, names(row), data.home);
  }

  // the pip counts (player on roll first) and who has borne off how many
  function countsText(row) {
    if (row.dataset.noboard !== undefined) return "";
    var pos = position(row.dataset.pid), m = matchState(row.dataset.draw || row.dataset.mid), who = names(row);
    var text = "pips: " + who[m.onRoll] + " " + pips(pos.player) + ", " + who[1 - m.onRoll] + " " + pips(pos.opponent);
    var off = [[who[m.onRoll], pos.player[0]], [who[1 - m.onRoll], pos.opponent[0]]].filter(function (s) { return s[1]; });
    if (off.length) text += " \u00b7 borne off: " + off.map(function (s) { return s[0] + " " + s[1]; }).join(", ");
    return text;
  }

  // the chance that the side on roll bears off first (bgcli.analysis.bearoff.race_win)
  function raceWin(mine, theirs) {
    if (!mine.length) return 1;
    if (!theirs.length) return 0;
    var total = 0;
    mine.forEach(function (p, n) {
      var rest = 0;
      for (var k = n; k < theirs.length; k++) rest += theirs[k];
      total += p * rest;
    });
    return Math.min(1, total);
  }

  // the bear-off odds of a row: each side all home has an entry [mean, dist] in data.sides
  function odds(row) {
    if (!row.dataset.bearoff) return null;
    var m = matchState(row.dataset.draw || row.dataset.mid), who = names(row);
    var pick = row.dataset.bearoff.split(",").map(function (k) {
      return k === "" ? null : {mean: data.sides[+k][0], dist: data.sides[+k][1]};
    });
    var race = null;
    if ((pick[0] && pick[1]) || (pick[0] && !pick[0].dist.length) || (pick[1] && !pick[1].dist.length)) {
      var win = raceWin(pick[0] ? pick[0].dist : [0], pick[1] ? pick[1].dist : [0]);
      race = [win, 1 - win];
    }
    return {on_roll: pick[0], opponent: pick[1], race: race, names: [who[m.onRoll], who[1 - m.onRoll]]};
  }

  // where the row is, as bgcli.render.view._where says it: from its game's head, its cells and its line
  function where(row) {
    var head = row.parentNode.dataset.head;
    if (!row.classList.contains("event")) return head + ": the position where the record stops";
    var cells = row.cells, number = cells[0].textContent, dice = cells[2].textContent, first = cells[3].firstChild;
    var play = first && first.nodeType === 3 ? first.nodeValue : "";
    var what = row.classList.contains("move") ? "rolls " + dice + " and plays " + play :
      row.classList.contains("pass") ? "rolls " + dice + " and does not move" : play;
    return head + (number ? ", move " + number : "") + ", line " + row.dataset.line + ": " + cells[1].textContent + " " + what;
  }

  // The page is the one thing that scrolls: a row off screen is brought to a third of the way down
  // (the page cannot scroll past its end, so no blank band comes into view below the list).
  function reveal(row) {
    var r = row.getBoundingClientRect();
    if (r.top < 8 || r.bottom > innerHeight - 8) window.scrollBy(0, r.top - innerHeight / 3);
  }

  function select(i, scroll) {
    if (!rows.length) return;
    i = Math.max(0, Math.min(rows.length - 1, i));
    if (current >= 0) rows[current].classList.remove("selected");
    current = i;
    var row = rows[i];
    row.classList.add("selected");
    board.innerHTML = rowBoard(i);
    document.getElementById("pid").textContent = row.dataset.pid;
    document.getElementById("mid").textContent = row.dataset.mid;
    document.getElementById("where").textContent = where(row);
    document.getElementById("pips").textContent = countsText(row);
    showBearoff(odds(row));
    document.getElementById("position").textContent = (i + 1) + " / " + rows.length;
    var messages = document.getElementById("messages");
    messages.innerHTML = "";
    row.querySelectorAll(".msg").forEach(function (m) { messages.appendChild(m.cloneNode(true)); });
    if (scroll) {
      reveal(row);
      // the games far from the screen are laid out when they come near it (content-visibility):
      // once they are, the row may have moved, and is brought back
      var frames = 0;
      (function again() {
        requestAnimationFrame(function () { reveal(row); if (++frames < 6 && row === rows[current]) again(); });
      })();
    }
    try { history.replaceState(null, "", "#step=" + i); } catch (e) { /* some browsers refuse on file: */ }
  }

  // the chance of bearing off in each number of rolls, for each side all home
  function showBearoff(odds) {
    var table = document.getElementById("bearoff");
    table.innerHTML = "";
    table.hidden = !odds;
    if (!odds) return;
    var names = odds.names;
    var sides = [[esc(names[0]) + " (on roll)", odds.on_roll], [esc(names[1]), odds.opponent]].filter(function (s) { return s[1]; });
    // only the numbers of rolls that either side may need: a column of 0.0% says nothing
    var first = Infinity, last = 0;
    sides.forEach(function (s) {
      s[1].dist.forEach(function (p, n) { if (p >= 0.0005) { first = Math.min(first, n); last = Math.max(last, n); } });
    });
    if (first === Infinity) first = 0;
    var head = "<tr><th>rolls to bear off</th>";
    for (var n = first; n <= last; n++) head += "<th>" + (n + 1) + "</th>";
    head += "<th>mean</th>";
    var body = sides.map(function (s) {
      var cells = "<tr><th>" + s[0] + "</th>";
      for (var n = first; n <= last; n++) cells += "<td>" + (100 * (s[1].dist[n] || 0)).toFixed(1) + "%</td>";
      return cells + "<td>" + s[1].mean.toFixed(2) + "</td></tr>";
    });
    var race = odds.race ? "<tr><th>wins the race</th><td colspan='" + (last - first + 2) + "'>" + esc(names[0]) + " " +
      (100 * odds.race[0]).toFixed(1) + "%, " + esc(names[1]) + " " + (100 * odds.race[1]).toFixed(1) + "%</td></tr>" : "";
    table.innerHTML = "<caption>the chance of bearing off every checker in exactly n rolls</caption>" + head + "</tr>" +
      body.join("") + race;
  }

  function problemFrom(i, direction) {
    for (var j = i + direction; j >= 0 && j < rows.length; j += direction) {
      if (rows[j].classList.contains("problem")) return j;
    }
    return i;
  }

  function fromHash() {
    var match = /step=(\d+)/.exec(location.hash);
    return match ? +match[1] : null;
  }

  // for the tests: the board, counts and odds of any row, as the page shows them
  window.bgcliView = {board: rowBoard, counts: function (i) { return countsText(rows[i]); },
                      odds: function (i) { return odds(rows[i]); }, where: function (i) { return where(rows[i]); }};

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    var moves = {ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1};
    if (e.key in moves) select(current + moves[e.key], true);
    else if (e.key === "Home") select(0, true);
    else if (e.key === "End") select(rows.length - 1, true);
    else if (e.key === "n") select(problemFrom(current, 1), true);
    else if (e.key === "p") select(problemFrom(current, -1), true);
    else return;
    e.preventDefault();
  });
  // one listener for every row: a long session has tens of thousands
  document.querySelector(".movelist").addEventListener("click", function (e) {
    var row = e.target.closest ? e.target.closest("tr.step") : null;
    if (row) select(rows.indexOf(row), false);
  });
  window.addEventListener("hashchange", function () {
    var i = fromHash();
    if (i !== null && i !== current) select(i, true);
  });
  var start = fromHash();
  select(start === null ? 0 : start, start !== null);
})();
