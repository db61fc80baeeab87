/* cranfield report: the per-query table (sort, filter, pages), the charts (SVG) and the
   sortable tables.  Hand-written, no library; data from the JSON block #cranfield-data, whose
   numbers Python rounded to the decimals shown (toFixed(digits) gives back its text). Text
   from the data only ever goes through textContent. */
(function () {
  "use strict";
  var source = document.getElementById("cranfield-data");
  if (!source) return;
  var D = JSON.parse(source.textContent);
  var NS = "http://www.w3.org/2000/svg";
  var PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                 "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  var DASHES = ["", "7 3", "2 3", "9 3 2 3"];
  var REF = D.reference;

  function $(id) { return document.getElementById(id); }
  function styleOf(i) { return { color: PALETTE[i % 10], dash: DASHES[Math.floor(i / 10) % 4] }; }
  function fmt(v, integer) {
    if (v === null || v === undefined) return "–";
    return integer ? String(v) : v.toFixed(D.digits);
  }
  function signed(v, integer) {
    if (v === null || v === undefined) return "–";
    var text = fmt(v, integer);
    return (v > 0 || (v === 0 && text.charAt(0) !== "-")) ? "+" + text : text;
  }
  function node(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function svgNode(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function option(select, value, text) {
    var o = node("option", text);
    o.value = String(value);
    select.appendChild(o);
  }

  /* ---------------------------------------------------------------- sortable tables */
  function cellKey(td) {
    var t = td.textContent.trim().replace(/^[<>≤≥]/, "");
    var n = parseFloat(t);
    return isNaN(n) ? null : n;
  }
  function makeSortable(table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      if (!th.hasAttribute("data-sortable")) return;
      th.tabIndex = 0;
      var go = function () {
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var keys = rows.map(function (r, i) {
          var td = r.cells[col];
          return { row: r, i: i, n: td ? cellKey(td) : null, s: td ? td.textContent.trim() : "" };
        });
        var numeric = keys.every(function (k) { return k.n !== null || k.s === "" || k.s === "–"; });
        keys.sort(function (a, b) {
          var c;
          if (numeric) {
            if (a.n === null || b.n === null) return (a.n === null) - (b.n === null) || a.i - b.i;
            c = a.n - b.n;
          } else {
            c = a.s.localeCompare(b.s, undefined, { numeric: true });
          }
          return dir * c || a.i - b.i;
        });
        keys.forEach(function (k) { body.appendChild(k.row); });
      };
      th.addEventListener("click", go);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);

  /* ---------------------------------------------------------------- per-query table */
  var pq = { m: 0, view: "values", filter: "", col: null, dir: 1, page: 0, size: 100 };
  var measureSel = $("pq-measure"), viewSel = $("pq-view");
  D.measures.forEach(function (m, i) { option(measureSel, i, m.label); option($("md-measure"), i, m.label); });
  var LABELS = D.labels || D.runs;  /* the part of the names that differs; full names on hover */
  D.runs.forEach(function (r, j) { if (j !== REF) option($("md-run"), j, LABELS[j] + " vs " + LABELS[REF]); });
  if (D.runs.length < 2) viewSel.disabled = true;

  function queriesOf(m) {
    if (m.rows) return m.rows;
    var out = new Array(D.queries.length);
    for (var i = 0; i < out.length; i++) out[i] = i;
    return out;
  }
  var REL = D.relevant !== null;  /* no relevant-documents column without qrels */
  var RUN0 = REL ? 2 : 1;  /* the column of the first run */
  function columnOf(col) {  /* 0: query id, 1: relevant documents (with qrels), then the runs */
    if (col === 0) return null;
    if (REL && col === 1) return "relevant";
    return col - RUN0;
  }
  function order() {
    var m = D.measures[pq.m], qs = queriesOf(m), keep = [];
    var f = pq.filter.toLowerCase();
    for (var k = 0; k < qs.length; k++) {
      if (!f || D.queries[qs[k]].toLowerCase().indexOf(f) >= 0) keep.push(k);
    }
    var c = columnOf(pq.col), dir = pq.dir;
    if (pq.col === null || pq.col === 0) {
      if (pq.col === 0 && dir < 0) keep.reverse();
      return keep;
    }
    var key;
    if (c === "relevant") key = function (k) { return D.relevant[qs[k]]; };
    else {
      var arr = pq.view === "diffs" ? m.diffs[c] : m.values[c];
      key = arr ? function (k) { return arr[k]; } : function () { return null; };
    }
    keep.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (x === null || y === null) return (x === null) - (y === null) || a - b;
      return dir * (x - y) || a - b;
    });
    return keep;
  }
  function renderHead() {
    var tr = node("tr");
    var names = (REL ? ["query", "R"] : ["query"]).concat(LABELS);
    names.forEach(function (name, col) {
      var th = node("th", col >= RUN0 && pq.view === "diffs" && col - RUN0 !== REF ? "Δ " + name : name);
      th.scope = "col";
      th.setAttribute("data-sortable", "");
      th.setAttribute("data-col", String(col));
      th.tabIndex = 0;
      th.title = col >= RUN0 ? D.runs[col - RUN0] : col === 1 ? "relevant documents" : "query id";
      if (col >= RUN0 && col - RUN0 === REF) th.title += " (reference)";
      if (pq.col === col) th.setAttribute("aria-sort", pq.dir > 0 ? "ascending" : "descending");
      tr.appendChild(th);
    });
    var head = $("pq-table").tHead;
    head.textContent = "";
    head.appendChild(tr);
  }
  function renderBody() {
    var m = D.measures[pq.m], qs = queriesOf(m), rows = order();
    var pages = Math.max(1, Math.ceil(rows.length / pq.size));
    if (pq.page >= pages) pq.page = pages - 1;
    var start = pq.page * pq.size, end = Math.min(rows.length, start + pq.size);
    var frag = document.createDocumentFragment();
    var diffs = pq.view === "diffs";
    for (var i = start; i < end; i++) {
      var k = rows[i], tr = node("tr");
      tr.appendChild(node("td", D.queries[qs[k]]));
      if (REL) {
        var rel = D.relevant[qs[k]];
        tr.appendChild(node("td", rel === null ? "–" : String(rel)));
      }
      for (var j = 0; j < D.runs.length; j++) {
        var td;
        if (diffs && j !== REF) {
          var v = m.diffs[j][k];
          td = node("td", signed(v, m.integer));
          if (v !== null && v * m.better > 0) td.className = "pos";
          else if (v !== null && v * m.better < 0) td.className = "neg";
        } else {
          td = node("td", fmt(m.values[j][k], m.integer));
        }
        tr.appendChild(td);
      }
      frag.appendChild(tr);
    }
    var body = $("pq-table").tBodies[0];
    body.textContent = "";
    body.appendChild(frag);
    $("pq-info").textContent = rows.length
      ? "queries " + (start + 1) + "–" + end + " of " + rows.length + (rows.length !== qs.length ? " (filtered from " + qs.length + ")" : "")
      : "no query matches";
    $("pq-prev").disabled = pq.page === 0;
    $("pq-next").disabled = pq.page >= pages - 1;
  }
  function renderTable() { renderHead(); renderBody(); }
  $("pq-table").tHead.addEventListener("click", function (e) {
    var th = e.target.closest("th");
    if (!th) return;
    var col = parseInt(th.getAttribute("data-col"), 10);
    pq.dir = pq.col === col ? -pq.dir : 1;
    pq.col = col;
    pq.page = 0;
    renderTable();
  });
  $("pq-table").tHead.addEventListener("keydown", function (e) {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.target.click(); }
  });
  measureSel.addEventListener("change", function () { pq.m = +measureSel.value; pq.page = 0; renderTable(); });
  viewSel.addEventListener("change", function () { pq.view = viewSel.value; renderTable(); });
  $("pq-filter").addEventListener("input", function (e) { pq.filter = e.target.value; pq.page = 0; renderBody(); });
  $("pq-size").addEventListener("change", function (e) { pq.size = +e.target.value; pq.page = 0; renderBody(); });
  $("pq-prev").addEventListener("click", function () { pq.page--; renderBody(); });
  $("pq-next").addEventListener("click", function () { pq.page++; renderBody(); });

  /* ---------------------------------------------------------------- charts */
  function ticks(lo, hi, most) {
    var span = hi - lo || 1, raw = span / most, mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 2.5, 5, 10].map(function (s) { return s * mag; }).filter(function (s) { return span / s <= most; })[0] || mag * 10;
    var out = [], first = Math.ceil(lo / step - 1e-9) * step;
    for (var t = first; t <= hi + step * 1e-9; t += step) out.push(Math.round(t / step) * step);
    return out;
  }
  function tickText(t) { return String(parseFloat(t.toPrecision(6))); }
  function lineChart(box, opt) {
    box.textContent = "";
    var W = 860, H = 360, L = 62, R = 16, T = 14, B = 46;
    var svg = svgNode("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": opt.title });
    var sx = function (x) { return L + (x - opt.x0) / ((opt.x1 - opt.x0) || 1) * (W - L - R); };
    var sy = function (y) { return H - B - (y - opt.y0) / ((opt.y1 - opt.y0) || 1) * (H - T - B); };
    ticks(opt.y0, opt.y1, 6).forEach(function (t) {
      svgNode("line", { x1: L, x2: W - R, y1: sy(t), y2: sy(t), "class": "grid" }, svg);
      svgNode("text", { x: L - 6, y: sy(t) + 4, "text-anchor": "end" }, svg).textContent = tickText(t);
    });
    ticks(opt.x0, opt.x1, 10).forEach(function (t) {
      svgNode("line", { x1: sx(t), x2: sx(t), y1: H - B, y2: H - B + 4, "class": "axis" }, svg);
      svgNode("text", { x: sx(t), y: H - B + 17, "text-anchor": "middle" }, svg).textContent = tickText(t);
    });
    svgNode("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, "class": "axis" }, svg);
    svgNode("line", { x1: L, x2: L, y1: T, y2: H - B, "class": "axis" }, svg);
    svgNode("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle" }, svg).textContent = opt.xlabel;
    svgNode("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", transform: "rotate(-90 14 " + (T + H - B) / 2 + ")" }, svg).textContent = opt.ylabel;
    var paths = [];
    opt.series.forEach(function (s) {
      var d = "", pts = s.points.filter(function (p) { return p[1] !== null; });
      pts.forEach(function (p, i) { d += (i ? "L" : "M") + sx(p[0]).toFixed(1) + " " + sy(p[1]).toFixed(1); });
      var attrs = { d: d || "M0 0", "class": "series" + (s.cls ? " " + s.cls : "") };
      if (s.color) { attrs.stroke = s.color; }
      if (s.dash) attrs["stroke-dasharray"] = s.dash;
      var path = svgNode("path", attrs, svg);
      var title = svgNode("title", {}, path);
      title.textContent = s.name;
      if (opt.markers && pts.length <= 120) {
        pts.forEach(function (p) {
          var c = svgNode("circle", { cx: sx(p[0]).toFixed(1), cy: sy(p[1]).toFixed(1), r: 2.6, "class": s.cls || "" }, svg);
          if (s.color) c.setAttribute("fill", s.color);
        });
      }
      paths.push(path);
    });
    box.appendChild(svg);
    var legend = node("ul", null, "legend");
    opt.series.forEach(function (s, i) {
      var li = node("li");
      var sw = svgNode("svg", { viewBox: "0 0 28 10", "aria-hidden": "true" });
      var a = { x1: 0, x2: 28, y1: 5, y2: 5, "stroke-width": 2.5, "class": s.cls || "" };
      if (s.color) a.stroke = s.color;
      if (s.dash) a["stroke-dasharray"] = s.dash;
      svgNode("line", a, sw);
      li.appendChild(sw);
      li.appendChild(node("span", s.label || s.name)).title = s.name;
      li.addEventListener("mouseenter", function () { paths.forEach(function (p, k) { if (k !== i) p.classList.add("dim"); }); });
      li.addEventListener("mouseleave", function () { paths.forEach(function (p) { p.classList.remove("dim"); }); });
      legend.appendChild(li);
    });
    box.appendChild(legend);
  }

  function drawPR() {
    var series = D.runs.map(function (r, j) {
      var st = styleOf(j);
      return { name: r, label: LABELS[j], color: st.color, dash: st.dash,
               points: D.pr.levels.map(function (x, i) { return [x, D.pr.values[j][i]]; }) };
    });
    lineChart($("pr-chart"), { title: "Precision-recall curves", series: series, x0: 0, x1: 1, y0: 0, y1: 1,
      xlabel: "recall", ylabel: "precision", markers: D.runs.length <= 12 });
  }
  function drawGain() {
    var curve = $("gain-curve").value, vals = D.gain[curve], top = 1, most = 0;
    vals.forEach(function (v) {
      top = Math.max(top, v.length);
      v.forEach(function (y) { if (y !== null && y > most) most = y; });
    });
    var series = D.runs.map(function (r, j) {
      var st = styleOf(j);
      return { name: r, label: LABELS[j], color: st.color, dash: st.dash,
               points: vals[j].map(function (y, i) { return [i + 1, y]; }) };
    });
    var norm = curve === "ndcg" || curve === "ncg";
    lineChart($("gain-chart"), { title: curve.toUpperCase() + " against rank", series: series, x0: 1, x1: Math.max(top, 2),
      y0: 0, y1: norm ? 1 : (most || 1), xlabel: "rank", ylabel: curve.toUpperCase(), markers: false });
  }
  function drawMagnitude() {
    var box = $("md-chart"), wlt = $("md-wlt");
    var m = D.measures[+$("md-measure").value], j = +$("md-run").value;
    if (D.runs.length < 2 || isNaN(j)) { box.textContent = ""; return; }
    var d = m.diffs[j], wins = [], losses = [], ties = 0;
    for (var k = 0; k < d.length; k++) {
      var v = d[k];
      if (v === null) continue;
      v *= m.better;
      if (v > 0) wins.push(v); else if (v < 0) losses.push(-v); else ties++;
    }
    wins.sort(function (a, b) { return b - a; });
    losses.sort(function (a, b) { return b - a; });
    var counts = m.wlt[j] || [wins.length, losses.length, ties];
    wlt.textContent = "";
    var run = D.runs[j], ref = D.runs[REF], runL = LABELS[j], refL = LABELS[REF];
    wlt.appendChild(node("span", runL + " better on " + counts[0], "w")).title = run;
    wlt.appendChild(document.createTextNode(" · "));
    wlt.appendChild(node("span", refL + " better on " + counts[1], "l")).title = ref;
    wlt.appendChild(document.createTextNode(" · equal on " + counts[2] + " (queries; " + m.label + ")"));
    var most = 0;
    wins.concat(losses).forEach(function (v) { if (v > most) most = v; });
    var pts = function (a) { return a.map(function (v, i) { return [i + 1, v]; }); };
    lineChart(box, { title: "Magnitude differences in " + m.label, x0: 0.5, x1: Math.max(wins.length, losses.length, 1) + 0.5,
      y0: 0, y1: most || 1, xlabel: "queries, ranked by the size of the difference",
      ylabel: "difference in " + m.label, markers: true,
      series: [{ name: run, label: runL + " better (" + counts[0] + ")", cls: "win", points: pts(wins) },
               { name: ref, label: refL + " better (" + counts[1] + ")", cls: "loss", points: pts(losses) }] });
  }
  $("md-measure").addEventListener("change", drawMagnitude);
  $("md-run").addEventListener("change", drawMagnitude);
  if (D.gain) $("gain-curve").addEventListener("change", drawGain);

  window.addEventListener("beforeprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (e) { e.open = true; });
  });

  renderTable();
  drawMagnitude();
  if (D.pr) drawPR();  /* no curves without rankings (nugget scores) */
  if (D.gain) drawGain();
  document.documentElement.setAttribute("data-ready", "1");
})();
