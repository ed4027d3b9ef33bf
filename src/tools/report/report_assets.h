// The pass explorer's inline style and script (one page, no network: everything is inline).
#pragma once

namespace relaypass::tools::report_assets {

inline constexpr const char* kStyle = R"CSS(
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       color: #212529; background: #f8f9fa; }
header { padding: 10px 16px; background: #212529; color: #f8f9fa; }
header h1 { font-size: 16px; margin: 0 0 4px 0; }
header .meta { font-family: monospace; font-size: 12px; color: #ced4da; white-space: pre-wrap; }
header .totals span { margin-right: 18px; }
main { display: grid; grid-template-columns: 380px 1fr; grid-template-rows: 1fr 1fr;
       height: calc(100vh - 110px); gap: 8px; padding: 8px; }
section { background: white; border: 1px solid #dee2e6; border-radius: 4px; overflow: auto; }
section h2 { font-size: 13px; margin: 0; padding: 6px 10px; background: #e9ecef;
             position: sticky; top: 0; z-index: 1; }
#passes { grid-row: 1 / span 2; }
.pass { display: grid; grid-template-columns: 1fr 90px; align-items: center; padding: 2px 8px;
        cursor: pointer; border-bottom: 1px solid #f1f3f5; }
.pass:hover { background: #f1f3f5; }
.pass.selected { background: #d0ebff; }
.pass .name { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pass .time { text-align: right; font-family: monospace; font-size: 11px; }
.pass .bar { grid-column: 1 / span 2; height: 3px; background: #4dabf7; margin-top: 1px; }
.pass.skipped { color: #adb5bd; font-style: italic; }
.pass.failed .name { color: #e03131; font-weight: bold; }
.pass.changed .name::after { content: " \25CF"; color: #f08c00; font-size: 9px; }
.badge { font-size: 10px; padding: 0 4px; border-radius: 3px; background: #e9ecef; margin-left: 4px; }
#detail .body { padding: 8px 10px; }
#detail table { border-collapse: collapse; margin: 4px 0 8px 0; }
#detail td, #detail th { padding: 1px 8px; border-bottom: 1px solid #f1f3f5; text-align: left; }
.plus { color: #2b8a3e; } .minus { color: #c92a2a; }
pre.diff { font: 11px/1.35 monospace; margin: 0; white-space: pre; }
pre.diff .add { background: #ebfbee; display: block; }
pre.diff .del { background: #fff5f5; display: block; }
pre.diff .hunk { color: #1971c2; display: block; }
#graph { position: relative; overflow: hidden; }
#graph .canvas { width: 100%; height: calc(100% - 30px); cursor: grab; }
#graph svg { width: 100%; height: 100%; }
#graph g.node { cursor: pointer; }
#graph g.node.picked polygon, #graph g.node.picked ellipse { stroke: #e8590c; stroke-width: 3; }
#nodeinfo { position: absolute; right: 8px; bottom: 8px; max-width: 45%; background: white;
            border: 1px solid #adb5bd; border-radius: 4px; padding: 6px 8px; font-size: 12px;
            font-family: monospace; white-space: pre-wrap; display: none; }
.hint { color: #868e96; font-size: 11px; padding: 0 10px; }
)CSS";

inline constexpr const char* kScript = R"JS(
"use strict";
const data = JSON.parse(document.getElementById("report-data").textContent);
const $ = (sel) => document.querySelector(sel);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const fmtTime = (us) => us >= 1e6 ? (us / 1e6).toFixed(2) + " s" : us >= 1e3 ? (us / 1e3).toFixed(2) + " ms" : us.toFixed(0) + " us";

function renderHeader() {
  const t = data.totals;
  $("#meta").textContent = "input: " + data.input + "\ncommand: " + data.command + "\nPassContext: " + data.context;
  $("#totals").innerHTML =
    "<span>passes run: <b>" + t.run + "</b></span><span>skipped: <b>" + t.skipped + "</b></span>" +
    "<span>failed: <b>" + t.failed + "</b></span><span>total time: <b>" + fmtTime(t.time_us) + "</b></span>" +
    "<span>operator calls: <b>" + t.ops_before + " &rarr; " + t.ops_after + "</b></span>" +
    "<span>nodes: <b>" + t.nodes_before + " &rarr; " + t.nodes_after + "</b></span>" +
    "<span>fused functions: <b>" + t.fused_after + "</b></span>";
}

function renderPasses() {
  const list = $("#passlist");
  const total = Math.max(data.totals.time_us, 1);
  const parts = [];
  data.passes.forEach((p, i) => {
    const cls = ["pass"];
    if (p.status.startsWith("skipped")) cls.push("skipped");
    if (p.status.startsWith("failed")) cls.push("failed");
    if (p.changed) cls.push("changed");
    const badge = p.status === "ok" ? "" : '<span class="badge">' + esc(p.status) + "</span>";
    const bar = p.status.startsWith("skipped") ? "" :
      '<div class="bar" style="width:' + Math.max(0.5, 100 * p.duration_us / total).toFixed(2) + '%"></div>';
    parts.push('<div class="' + cls.join(" ") + '" data-index="' + i + '" data-name="' + esc(p.name) +
      '" data-time-us="' + p.duration_us.toFixed(1) + '" style="padding-left:' + (8 + 16 * p.depth) + 'px">' +
      '<span class="name" title="' + esc(p.name) + '">' + esc(p.name) + badge + "</span>" +
      '<span class="time">' + (p.status.startsWith("skipped") ? "" : fmtTime(p.duration_us)) + "</span>" + bar + "</div>");
  });
  list.innerHTML = parts.join("");
  list.addEventListener("click", (ev) => {
    const row = ev.target.closest(".pass");
    if (row) select(Number(row.dataset.index));
  });
}

const DIFF_LINES_SHOWN = 400;
function diffHtml(diff, all) {
  const lines = diff.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  const shown = all ? lines : lines.slice(0, DIFF_LINES_SHOWN);
  const html = shown.map((l) => {
    const c = l.startsWith("@@") ? "hunk" : l.startsWith("+") && !l.startsWith("+++") ? "add" :
              l.startsWith("-") && !l.startsWith("---") ? "del" : "";
    return c ? '<span class="' + c + '">' + esc(l) + "</span>" : esc(l) + "\n";
  }).join("");
  return { html, folded: lines.length - shown.length };
}

function select(i) {
  document.querySelectorAll(".pass.selected").forEach((e) => e.classList.remove("selected"));
  const row = document.querySelector('.pass[data-index="' + i + '"]');
  if (row) row.classList.add("selected");
  const p = data.passes[i];
  let h = "<h2>" + esc(p.name) + " &mdash; " + esc(p.status) + "</h2><div class='body'>";
  h += "<div>time: <b>" + fmtTime(p.duration_us) + "</b>, nodes: " + p.nodes_before + " &rarr; " + p.nodes_after +
       " (" + (p.nodes_after - p.nodes_before >= 0 ? "+" : "") + (p.nodes_after - p.nodes_before) + ")</div>";
  if (p.max_abs_diff !== null && p.max_abs_diff !== undefined)
    h += "<div>verify-each: largest difference introduced <b>" + Number(p.max_abs_diff).toExponential(3) + "</b></div>";
  const ops = Object.entries(p.op_delta);
  if (ops.length) {
    h += "<table><tr><th>operator</th><th>change</th></tr>" + ops.map(([op, d]) =>
      "<tr><td>" + esc(op) + "</td><td class='" + (d > 0 ? "plus" : "minus") + "'>" + (d > 0 ? "+" : "") + d + "</td></tr>").join("") + "</table>";
  }
  if (p.container) h += "<div class='hint'>groups the passes nested under it</div>";
  else if (!p.changed) h += "<div class='hint'>the module was not changed</div>";
  if (p.diff) {
    const d = diffHtml(p.diff, false);
    h += "<div>diff: <span class='plus'>+" + p.lines_added + "</span> <span class='minus'>-" + p.lines_removed + "</span> lines</div>";
    h += "<pre class='diff' id='diffpre'>" + d.html + "</pre>";
    if (d.folded > 0) h += "<button id='unfold'>show " + d.folded + " more lines</button>";
    if (p.diff_lines_dropped > 0) h += "<div class='hint'>" + p.diff_lines_dropped + " further lines were left out of the report</div>";
  }
  h += "</div>";
  $("#detail").innerHTML = h;
  const unfold = $("#unfold");
  if (unfold) unfold.addEventListener("click", () => { $("#diffpre").innerHTML = diffHtml(p.diff, true).html; unfold.remove(); });
}

function renderGraph() {
  const canvas = $("#graph .canvas");
  canvas.innerHTML = data.graph.svg;
  const svg = canvas.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const vb = svg.viewBox.baseVal;
  // Start with the top of the graph at a readable scale: its full width, or 1.5 px per unit.
  const box = canvas.getBoundingClientRect();
  const scale = Math.min(box.width / vb.width, 1.5) || 1;
  let view = { x: vb.x, y: vb.y, w: box.width / scale, h: box.height / scale };
  view.x = vb.x + (vb.width - view.w) / 2;
  const apply = () => svg.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
  apply();
  canvas.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const r = svg.getBoundingClientRect();
    const fx = (ev.clientX - r.left) / r.width, fy = (ev.clientY - r.top) / r.height;
    const k = ev.deltaY > 0 ? 1.2 : 1 / 1.2;
    const nw = view.w * k, nh = view.h * k;
    view = { x: view.x + (view.w - nw) * fx, y: view.y + (view.h - nh) * fy, w: nw, h: nh };
    apply();
  }, { passive: false });
  let drag = null;
  canvas.addEventListener("mousedown", (ev) => { drag = { x: ev.clientX, y: ev.clientY, view: { ...view } }; });
  window.addEventListener("mouseup", () => { drag = null; });
  window.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    view.x = drag.view.x - (ev.clientX - drag.x) * view.w / r.width;
    view.y = drag.view.y - (ev.clientY - drag.y) * view.h / r.height;
    apply();
  });
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest("g.node");
    if (!g) return;
    document.querySelectorAll("g.node.picked").forEach((e) => e.classList.remove("picked"));
    g.classList.add("picked");
    const id = g.querySelector("title").textContent;
    const info = data.graph.nodes[id];
    const box = $("#nodeinfo");
    box.style.display = "block";
    box.textContent = info ? info.kind + (info.op ? " " + info.op : "") + "\ntype: " + (info.type || "?") +
      (info.attrs ? "\nattrs: " + info.attrs : "") + "\ncreated by: " + (info.created_by || "?") : id;
  });
}

renderHeader();
renderPasses();
renderGraph();
const firstChanged = data.passes.findIndex((p) => p.changed);
if (data.passes.length) select(firstChanged >= 0 ? firstChanged : 0);
document.body.dataset.rendered = "yes";
document.body.dataset.renderMs = performance.now().toFixed(0);
)JS";

}  // namespace relaypass::tools::report_assets
