// The dialogue browser of the actparse report: filters the embedded dialogues and shows
// one page of them at a time (a few thousand rendered at once would make the page slow).
(function () {
  "use strict";
  var meta = JSON.parse(document.getElementById("report-meta").textContent);
  var dialogues = JSON.parse(document.getElementById("report-data").textContent);
  var PAGE = 50;
  var page = 0;
  var byId = function (id) { return document.getElementById(id); };
  var inputSel = byId("filter-input"), actSel = byId("filter-act");
  var missBox = byId("filter-misses"), textBox = byId("filter-text");

  // Each dialogue's acts and lower-cased text, computed once for the filters.
  dialogues.forEach(function (d) {
    d.acts = {};
    d.search = "";
    d.turns.forEach(function (t) {
      if (t[3]) { d.acts[t[3]] = true; }
      d.search += " " + t[1].toLowerCase();
    });
  });

  function option(select, value, label) {
    var o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
  }
  meta.inputs.forEach(function (input, k) { option(inputSel, String(k), input.title + " · " + input.name); });
  var acts = {};
  dialogues.forEach(function (d) { Object.keys(d.acts).forEach(function (a) { acts[a] = true; }); });
  Object.keys(acts).sort().forEach(function (a) { option(actSel, a, a); });

  // Links to chart sections this report has none of are hidden.
  document.querySelectorAll("header nav a").forEach(function (a) {
    if (!document.querySelector(a.getAttribute("href"))) { a.style.display = "none"; }
  });

  function matching() {
    var input = inputSel.value, act = actSel.value, misses = missBox.checked;
    var words = textBox.value.trim().toLowerCase();
    return dialogues.filter(function (d) {
      return (input === "" || String(d.input) === input) &&
        (act === "" || d.acts[act]) &&
        (!misses || d.miss !== null) &&
        (words === "" || d.search.indexOf(words) >= 0);
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // The text with its highlights: text nodes and <mark>s, never parsed as HTML.
  function marked(text, spans) {
    var cell = el("td", "text"), at = 0;
    spans.forEach(function (s) {
      if (s[0] > at) { cell.appendChild(document.createTextNode(text.slice(at, s[0]))); }
      cell.appendChild(el("mark", s[2], text.slice(s[0], s[1])));
      at = s[1];
    });
    cell.appendChild(document.createTextNode(text.slice(at)));
    return cell;
  }

  function render(d) {
    var box = el("article", "dialogue" + (d.miss !== null ? " has-miss" : ""));
    box.dataset.where = d.where;
    box.dataset.record = d.record;
    box.dataset.input = String(d.input);
    var head = el("h3", "", d.where + " ");
    head.appendChild(el("span", "corpus", meta.inputs[d.input].title));
    box.appendChild(head);
    if (d.miss !== null) { box.appendChild(el("p", "summary", "Disagrees with the reference: " + d.miss)); }
    // The split the deal ends on, where the acts follow the deal (d.deal is null elsewhere).
    if (d.deal) {
      // A division the item values chose may be proposed by no message: its split, no #.
      var ends = !d.deal.split ? ": no proposal in the text" :
        (d.deal.proposal === null ? "" : " (#" + d.deal.proposal + ")") + ": " + d.deal.split;
      var final = el("p", "final-deal confidence-" + d.deal.confidence, "Final split" + ends +
        " · confidence " + d.deal.confidence + (d.deal.why ? " (" + d.deal.why + ")" : ""));
      box.appendChild(final);
    }
    var table = el("table"), header = el("tr");
    ["#", "writer", "text", "intent", "coarse", "arguments", "deal"].forEach(function (h) { header.appendChild(el("th", "", h)); });
    table.appendChild(header);
    d.turns.forEach(function (t, i) {
      var row = el("tr", t[7] ? "miss" : "");
      row.appendChild(el("td", "", String(i)));
      row.appendChild(el("td", "", t[0]));
      var text = marked(t[1], t[6]);
      if (t[5].length) { text.appendChild(el("div", "labels", "strategies: " + t[5].join(", "))); }
      if (t[8].length) { text.appendChild(el("div", "labels", "annotated: " + t[8].join(", "))); }
      if (t[7]) {
        text.appendChild(el("div", "reason", "reference: " + t[7].reference + " | ours: " +
          t[7].ours + (t[7].reason ? " (" + t[7].reason + ")" : "")));
      }
      row.appendChild(text);
      row.appendChild(el("td", "", t[2]));
      row.appendChild(el("td", "", t[3]));
      row.appendChild(el("td", "", t[4]));
      var deal = el("td", "deal", t[9]);
      if (t[10].length) { deal.appendChild(el("div", "uncertain", "assumed: " + t[10].join(", "))); }
      row.appendChild(deal);
      table.appendChild(row);
    });
    box.appendChild(table);
    return box;
  }

  function pager(target, total, pages) {
    target.textContent = "";
    if (pages < 2) { return; }
    var prev = el("button", "", "previous"), next = el("button", "", "next");
    prev.type = next.type = "button";
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
    prev.onclick = function () { page -= 1; show(); };
    next.onclick = function () { page += 1; show(); };
    target.appendChild(prev);
    target.appendChild(next);
    target.appendChild(document.createTextNode("page " + (page + 1) + " of " + pages));
  }

  function show() {
    var found = matching(), pages = Math.max(1, Math.ceil(found.length / PAGE));
    page = Math.min(page, pages - 1);
    var list = byId("dialogues");
    list.textContent = "";
    found.slice(page * PAGE, (page + 1) * PAGE).forEach(function (d) { list.appendChild(render(d)); });
    byId("match-count").textContent = found.length + " of " + dialogues.length + " dialogues";
    byId("match-count").dataset.count = String(found.length);
    pager(byId("pager-top"), found.length, pages);
    pager(byId("pager-bottom"), found.length, pages);
  }

  function refilter() { page = 0; show(); }
  [inputSel, actSel, missBox].forEach(function (c) { c.addEventListener("change", refilter); });
  textBox.addEventListener("input", refilter);
  // For scripts and tests: the dialogues the filters leave, by where they are.
  window.actparseReport = { matching: function () { return matching().map(function (d) { return d.where; }); } };
  show();
})();
