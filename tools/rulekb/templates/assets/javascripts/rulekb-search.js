/* rulekb search, the page's side (the dialog of partials/search.html), and the language menu
   that keeps the place on the page and the query.

   The engine (rulekb-search-worker.js) runs in a Web Worker started from a blob, which imports
   the engine and the index parts over http; from file://, where a worker can import no file, the
   blob holds the engine's source and the page loads the parts as scripts and hands them on. The
   page only sends the query and shows the answer, so typing never waits for the index. Where no worker can start, the engine runs on the page. The engine starts when the
   reader shows they want to search (focus, the search button, "/" or "s"), or at once when the
   page was opened with a query (?q=…, from the language menu).

   window.rulekbSearch tells the browser tests what happened: when the engine started, each answer
   shown (its query, when: performance.now(), with which parts of the index), the last query asked. */
(function () {
  "use strict";
  var root = document.querySelector("[data-rulekb-search]");
  var toggle = document.getElementById("__search");
  if (!root || !toggle) return;
  var input = root.querySelector("input.md-search__input");
  var meta = root.querySelector(".md-search-result__meta");
  var list = root.querySelector(".md-search-result__list");
  var strings = JSON.parse(root.getAttribute("data-strings"));
  var abs = function (name) { return new URL(root.getAttribute(name), document.baseURI).href; };
  var base = abs("data-base").replace(/\/?$/, "/");
  var state = window.rulekbSearch = { started: null, ready: null, parts: [], shown: [], errors: [], engine: null, asked: 0 };

  var engine = null, asked = 0, latest = "";

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return k in values ? values[k] : m; });
  }
  function escape(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  // ------------------------------------------------------------------ the engine

  function received(message) {
    if (message.type === "part") {
      state.parts.push(message.part);
      state.timings = (state.timings || []).concat([[message.part, message.unpackMs, message.indexMs, performance.now()]]);
      if (message.part === "rules") state.ready = performance.now();
    } else if (message.type === "result") {
      if (message.id === asked) show(message);
    } else if (message.type === "need") {
      /* from file:// the worker can import no file: its part's script is loaded here, and the
         part's call (rulekbSearchPart) handed on to the worker */
      script(message.url, function () { received({ type: "missing", url: message.url }); });
    } else if (message.type === "missing" || message.type === "error") {
      state.errors.push(message.url || message.message);
      if (!state.ready) meta.textContent = strings.unavailable;
    }
  }

  function script(url, failed, loaded) {
    var s = document.createElement("script");
    s.src = url;
    s.onerror = failed;
    if (loaded) s.onload = loaded;
    document.head.appendChild(s);
  }

  /* the engine's code (rulekb-search-worker.js read as a script of the page: it keeps its engine
     as a function, window.rulekbSearchEngineCode); null when it cannot be read */
  function engineCode() {
    return new Promise(function (resolve) {
      if (window.rulekbSearchEngineCode) { resolve(window.rulekbSearchEngineCode); return; }
      script(abs("data-engine"), function () { resolve(null); },
             function () { resolve(window.rulekbSearchEngineCode || null); });
    });
  }

  function onPage() {
    /* no worker: the engine and the parts as scripts of the page */
    state.engine = "page";
    return engineCode().then(function (code) {
      if (!code) return null;
      code(window);
      window.rulekbSearchEngine.connect(received, script);
      return { postMessage: window.rulekbSearchEngine.receive };
    });
  }

  /* Over http the worker imports the engine and the parts itself. From file:// a worker can import
     no file (browsers refuse file URLs there): it is started with the engine's source, read here as
     a script, and the parts are scripts of the page whose calls go on to it. */
  var relay = location.protocol === "file:";

  function worker() {
    var source = relay
      ? engineCode().then(function (code) { return code ? "(" + code.toString() + ")(self);" : null; })
      : Promise.resolve("importScripts(" + JSON.stringify(abs("data-engine")) + ");");
    return source.then(function (code) {
      if (!code) return null;
      var w = new Worker(URL.createObjectURL(new Blob([code], { type: "text/javascript" })));
      if (relay) {
        window.rulekbSearchPart = function (format, part, base64) {
          w.postMessage({ type: "part-data", format: format, part: part, base64: base64 });
        };
      }
      return w;
    });
  }

  function start() {
    if (engine) return engine;
    state.started = performance.now();
    var urls = { rules: abs("data-rules"), cards: abs("data-cards"), numbers: abs("data-numbers"), rulings: abs("data-rulings") };
    var loadMessage = { type: "load", urls: urls, relay: relay };
    engine = worker().then(function (w) {
      if (!w) return onPage();
      w.onmessage = function (event) { received(event.data); };
      w.onerror = function (event) {
        event.preventDefault();
        state.errors.push("worker: " + (event.message || "failed"));
        if (!state.ready) { engine = onPage().then(function (e) { if (e) e.postMessage(loadMessage); return e; }); }
      };
      state.engine = "worker";
      return w;
    }, function () { return onPage(); }).then(function (e) {
      if (e) e.postMessage(loadMessage);
      else meta.textContent = strings.unavailable;
      return e;
    });
    return engine;
  }

  function ask(query) {
    latest = query;
    updateAlternates();
    if (!query.trim()) { list.innerHTML = ""; meta.textContent = strings.initial; asked++; return; }
    var id = state.asked = ++asked;
    if (!state.ready) meta.textContent = strings.loading;
    start().then(function (e) { if (e) e.postMessage({ type: "query", id: id, query: query }); });
  }

  // ------------------------------------------------------------------ results

  function badge(lang) {
    if (!lang) return "";
    var text = fill(strings.untranslated, { language: strings.languages[lang] || lang });
    return ' <span class="rulekb-badge rulekb-badge--untranslated">' + escape(text.charAt(0).toUpperCase() + text.slice(1)) + "</span>";
  }

  function item(r, first) {
    var head, body = r.text, kind, lang = r.lang ? ' lang="' + escape(r.lang) + '"' : "";
    var rule = escape(r.rule) + " " + r.title;
    var number = '<span class="rulekb-number">' + escape(r.label) + "</span>" +
      (r.today ? " <small>(" + escape(fill(strings.today, { number: r.today })) + ")</small>" : "");
    if (r.kind === "title") { head = number + " " + r.titleMarked; kind = strings.rule; }
    else if (r.kind === "t" || r.kind === "s") { head = number + " <small>" + rule + "</small>"; kind = strings.rule; }
    else if (r.kind === "n") { head = escape(fill(strings.note, { n: r.anchor.slice(1) })) + " <small>" + rule + "</small>"; kind = strings.rule; }
    else if (r.kind === "u") { head = escape(strings.summary) + " <small>" + rule + "</small>"; kind = strings.rule; }
    else if (r.kind === "r") { head = escape(strings.ruling) + " <small>" + rule + "</small>"; kind = strings.ruling; }
    else if (r.kind === "glossary") { head = r.titleMarked; kind = strings.glossary; }
    else if (r.kind === "card") { head = r.titleMarked; body = r.others.join(" · "); kind = strings.card; }
    else { head = '<span class="rulekb-number">' + escape(r.label) + "</span>"; body = escape(strings.former); kind = strings.rule; }
    return '<li class="md-search-result__item rulekb-search-result rulekb-search-result--' + escape(r.kind) + '">' +
      '<a href="' + escape(base + r.url) + '" class="md-search-result__link" tabindex="-1" data-kind="' + escape(r.kind) + '">' +
      '<article class="md-search-result__article md-typeset' + (first ? " md-search-result__article--document" : "") + '">' +
      '<h1><span class="rulekb-search-kind">' + escape(kind) + "</span> " + head + badge(r.lang) + "</h1>" +
      (body ? "<p" + lang + ">" + body + "</p>" : "") + "</article></a></li>";
  }

  function show(message) {
    var n = message.total;
    if (n === 0) meta.textContent = strings.none;
    else if (n > message.results.length) meta.textContent = fill(strings.first, { total: n, shown: message.results.length });
    else meta.textContent = fill(n === 0 ? strings.zero : n === 1 ? strings.one : strings.other, { n: n });
    list.innerHTML = message.results.map(function (r, i) { return item(r, i === 0); }).join("");
    state.shown.push({ id: message.id, query: message.query, at: performance.now(), total: n, parts: message.parts,
                       ms: message.ms });
  }

  // ------------------------------------------------------------------ the dialog

  function open() {
    toggle.checked = true;
    start();
  }
  function close() {
    input.blur();
    toggle.checked = false;
  }

  /* The dialog stays open while its field has the focus: material closes it (a click on its
     toggle) 125 ms after the page opens at an anchor or the anchor changes, which would close the
     search under a reader who typed at once (and Escape in a closed dialog's field would clear
     the query). Closing it on purpose (`close`, the overlay, the back arrow) moves the focus first. */
  toggle.addEventListener("change", function () {
    if (toggle.checked) { start(); setTimeout(function () { input.focus(); }, 0); }
    else if (document.activeElement === input) toggle.checked = true;
  });
  input.addEventListener("focus", open);
  input.addEventListener("input", function () { ask(input.value); });
  root.querySelector("form").addEventListener("reset", function () { setTimeout(function () { ask(""); input.focus(); }, 0); });
  root.querySelector("form").addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) first.click();
  });

  function results() { return Array.prototype.slice.call(list.querySelectorAll("a.md-search-result__link")); }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var inField = /^(INPUT|TEXTAREA|SELECT)$/.test((document.activeElement || {}).tagName || "");
    if (!toggle.checked) {
      /* (Escape in a search field clears it: the query would be lost) */
      if (event.key === "Escape" && document.activeElement === input) { event.preventDefault(); close(); return; }
      if (!inField && (event.key === "/" || event.key === "s" || event.key === "f")) {
        event.preventDefault();
        open();
        input.focus();
      }
      return;
    }
    var links = results(), at = links.indexOf(document.activeElement);
    if (event.key === "Escape") { event.preventDefault(); close(); }
    else if (event.key === "ArrowDown" && links.length) {
      event.preventDefault();
      links[Math.min(links.length - 1, at + 1)].focus();
    } else if (event.key === "ArrowUp" && links.length) {
      event.preventDefault();
      if (at <= 0) input.focus(); else links[at - 1].focus();
    }
  });
  /* a result on this same page: close the dialog and go to the place */
  list.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a");
    if (link && link.href.split("#")[0] === location.href.split("#")[0]) close();
  });

  // ------------------------------------------------------------------ the language menu

  /* The same page in another language, at the same place (the anchor) and, when something is
     typed in the search field, with the same query (the search opens with it there). */
  function updateAlternates() {
    var query = latest.trim() ? "?q=" + encodeURIComponent(latest.trim()) : "";
    Array.prototype.forEach.call(document.querySelectorAll("a.rulekb-alternate"), function (a) {
      if (!a.hasAttribute("data-href")) a.setAttribute("data-href", a.getAttribute("href"));
      a.setAttribute("href", a.getAttribute("data-href").split(/[?#]/)[0] + query + location.hash);
    });
  }
  window.addEventListener("hashchange", updateAlternates);
  updateAlternates();

  var wanted = new URLSearchParams(location.search).get("q");
  if (wanted) {
    input.value = wanted;
    open();
    ask(wanted);
    input.focus();
  }
})();
