// convspec pages: search, copy buttons, linked <details>, sortable tables.
// No dependencies, no requests: the search index is a script beside it.
(function () {
  "use strict";

  // Search over window.CONVSPEC_SEARCH: [{k: kind, id, t: title, w: words, u: url}].
  function search(index, query) {
    var q = query.trim().toLowerCase();
    if (!q) return [];
    var words = q.split(/\s+/);
    var scored = [];
    for (var i = 0; i < index.length; i++) {
      var e = index[i], id = e.id.toLowerCase(), score = 0;
      if (id === q) score = 100;
      else if (id.indexOf(q) === 0) score = 60;
      else if (id.indexOf(q) >= 0) score = 40;
      else {
        var hay = id + " " + e.t.toLowerCase() + " " + (e.w || "");
        var all = true, inTitle = 0;
        for (var j = 0; j < words.length; j++) {
          if (hay.indexOf(words[j]) < 0) { all = false; break; }
          if (e.t.toLowerCase().indexOf(words[j]) >= 0) inTitle++;
        }
        if (!all) continue;
        score = 10 + inTitle * 5;
      }
      if (e.k === "clause") score += 3;
      scored.push([score, i]);
    }
    scored.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    return scored.slice(0, 30).map(function (s) { return index[s[1]]; });
  }

  function setupSearch() {
    var input = document.getElementById("search");
    var list = document.getElementById("search-results");
    var index = window.CONVSPEC_SEARCH;
    if (!input || !list || !index) return;
    var base = input.getAttribute("data-base") || "";
    var active = -1;
    function render() {
      var hits = search(index, input.value);
      list.textContent = "";
      active = hits.length ? 0 : -1;
      hits.forEach(function (e, i) {
        var li = document.createElement("li");
        var a = document.createElement("a");
        a.href = base + e.u;
        if (i === 0) a.className = "active";
        var kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = e.k;
        var id = document.createElement("b");
        id.textContent = e.id;
        a.appendChild(kind);
        a.appendChild(id);
        if (e.t && e.t !== e.id) a.appendChild(document.createTextNode(" — " + e.t));
        li.appendChild(a);
        list.appendChild(li);
      });
    }
    function move(d) {
      var links = list.querySelectorAll("a");
      if (!links.length) return;
      if (active >= 0) links[active].className = "";
      active = (active + d + links.length) % links.length;
      links[active].className = "active";
      links[active].scrollIntoView({ block: "nearest" });
    }
    input.addEventListener("input", render);
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown") { move(1); ev.preventDefault(); }
      else if (ev.key === "ArrowUp") { move(-1); ev.preventDefault(); }
      else if (ev.key === "Enter") {
        var links = list.querySelectorAll("a");
        if (links.length) { window.location.href = links[Math.max(active, 0)].href; list.textContent = ""; }
      } else if (ev.key === "Escape") { list.textContent = ""; input.blur(); }
    });
    list.addEventListener("click", function () { setTimeout(function () { list.textContent = ""; }, 0); });
    document.addEventListener("keydown", function (ev) {
      if (ev.key === "/" && document.activeElement !== input) { input.focus(); ev.preventDefault(); }
    });
    window.convspecSearch = function (q) { return search(index, q); };
  }

  // Copy buttons: data-copy names the element whose text is copied.
  function setupCopy() {
    document.querySelectorAll("button.copy").forEach(function (b) {
      b.addEventListener("click", function () {
        var src = document.getElementById(b.getAttribute("data-copy"));
        if (!src) return;
        var text = src.textContent;
        function done() { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy"; }, 1500); }
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
        } else { fallback(text); done(); }
      });
    });
  }
  function fallback(text) {
    var ta = document.createElement("textarea");
    ta.value = text;
    ta.setAttribute("readonly", "");
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.appendChild(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing to do: the text stays selectable */ }
    document.body.removeChild(ta);
  }

  // A link to a <details> (or into one) opens it.
  function openTarget() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    var el = document.getElementById(id);
    for (var n = el; n; n = n.parentElement) {
      if (n.tagName === "DETAILS") n.open = true;
    }
    if (el) el.scrollIntoView();
  }

  // Tables with class "sortable-table": a click on a th.sortable sorts the
  // rows of each tbody by that column (numbers by value, text by text).
  function setupSort() {
    document.querySelectorAll("table.sortable-table").forEach(function (table) {
      var heads = table.querySelectorAll("thead th");
      heads.forEach(function (th, col) {
        if (!th.classList.contains("sortable")) return;
        th.setAttribute("tabindex", "0");
        function sort() {
          var asc = th.getAttribute("aria-sort") !== "ascending";
          heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
          th.setAttribute("aria-sort", asc ? "ascending" : "descending");
          table.querySelectorAll("tbody").forEach(function (tb) {
            var rows = Array.prototype.slice.call(tb.rows);
            rows.sort(function (a, b) {
              var x = key(a.cells[col]), y = key(b.cells[col]);
              var c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
              return asc ? c : -c;
            });
            rows.forEach(function (r) { tb.appendChild(r); });
          });
        }
        th.addEventListener("click", sort);
        th.addEventListener("keydown", function (ev) { if (ev.key === "Enter") sort(); });
      });
    });
  }
  function key(cell) {
    if (!cell) return "";
    var k = cell.getAttribute("data-sort");
    if (k !== null && k !== "" && !isNaN(Number(k))) return Number(k);
    return k !== null ? k : cell.textContent.trim();
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupSearch();
    setupCopy();
    setupSort();
    openTarget();
  });
  window.addEventListener("hashchange", openTarget);
})();
