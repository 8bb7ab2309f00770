/* rulekb search engine. Runs in a Web Worker that rulekb-search.js starts from a blob (a worker
   script cannot be loaded from file:// directly): over http the blob imports this file; from
   file://, where a worker can import no file at all, the blob holds this engine's source, which
   the page read as a script. Where no worker can start it runs on the page instead, the same code.

   The index is prebuilt by `rulekb build` (tools/rulekb/render/search.py): parts that are
   scripts (a page loads scripts from file://, where it cannot fetch JSON), each a call
   rulekbSearchPart(format, part, base64 of gzipped JSON); over http the worker imports them
   (importScripts), from file:// the page loads them and hands each call on to the worker. The rules part of the page's language
   comes first and answers at once; the card names follow, then the rulings of cards (those of no
   rule: the rules part has the others), and the older rule numbers when a query is a number.

   Matching: the query and the texts are folded (case, accents, ß/æ/œ; in German "ae"/"oe"/"ue"
   also match ä/ö/ü), split into words; every word of the query must begin a word of the text
   (the last may be unfinished), rule numbers are words ("702.81" begins "702.81a"). A name is
   also found without its apostrophes ("Queens Agent"). Typos: when no name holds every word of
   the query, a word of five letters or more also matches the words of the names and the rules'
   texts one edit away (two from eight letters on; an edit: a letter added, dropped, changed, or
   two neighbours swapped: "retrase", "dregde", "lighting bolt"), ranked below exact matches.
   Ranking: a rule number typed exactly, then a name (card, rule title in any language, a term a
   rule defines, glossary term) that is the query — the rule that defines a term before the
   glossary's entry — starts with it or holds all its words, then texts holding the words as a
   phrase, then the rest; kinds break ties (rules before rulings). */
(function (self_) {
  "use strict";
  /* The whole engine is one function: a worker runs it at once; a page keeps it, to run it there
     (where no worker starts) or to start a worker with its source (from file://, where a worker
     can import no file: `rulekbSearchEngineCode.toString()`). */
  function engine(scope) {
    "use strict";
    var FORMAT = 3;
    var MAX_RESULTS = 30;
    var WEIGHT = { title: 30, card: 28, glossary: 24, t: 12, s: 12, u: 10, n: 8, r: 6, former: 4 };

    var lang = "en";
    var docs = [];          // {kind, url, label, today, title, names: [..], text, lang, rule, order}
    /* Two fields searched by scanning: every doc is a line of each, folded: its names (title,
       aliases, card names, numbers; tab-separated) and its text. A regular expression finds the
       words of the query at the start of a word, and where a match falls says which doc it is in
       (`starts`). No index of words is built: the complete card names (24,000 cards, three
       languages) are ready in a few tens of milliseconds, where an index of their words took a
       second or more on a phone. */
    var NAMES = { text: "", starts: [] };
    var TEXT = { text: "", starts: [] };
    var waiting = [];       // docs not yet in the fields
    var parts = {};         // which parts are in
    var last = null;        // the last query: answered again when a part comes in

    var CHAR_FOLD = { "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
      "đ": "d", "Đ": "d", "ł": "l", "Ł": "l", "ı": "i", "’": "'", "‘": "'", "ʼ": "'", "´": "'", "`": "'",
      "–": "-", "—": "-", "‑": "-", "‐": "-" };
    var SPECIAL = /[ßẞæÆœŒøØđĐłŁı’‘ʼ´`–—‑‐]/g;
    var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
    var WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;
    var LINE_BREAKS = /[\t\n\r]+/g;
    var NUMBER = /^\d{1,3}(?:\.\d+[a-z]?)?$/;
    var APOSTROPHES = /['’‘ʼ]/g;

    function fold(text) {
      return text.replace(SPECIAL, function (c) { return CHAR_FOLD[c]; })
        .normalize("NFD").replace(MARKS, "").toLowerCase();
    }

    /* A text folded character by character, with where each folded character came from, to mark
       the matches in the original text. */
    function foldMapped(text) {
      var out = "", from = [];
      for (var i = 0; i < text.length; i++) {
        var f = fold(text[i]);
        for (var j = 0; j < f.length; j++) { out += f[j]; from.push(i); }
      }
      from.push(text.length);
      return { text: out, from: from };
    }

    function words(text) {
      return text.match(WORD) || [];
    }

    /* The alternatives of a query word: in German, "koenigin" also matches "königin". */
    function alternatives(word) {
      var out = [word];
      if (lang === "de" && /[aou]e/.test(word)) out.push(word.replace(/([aou])e/g, "$1"));
      return out;
    }

    // ------------------------------------------------------------------ the fields

    function addDoc(doc) {
      doc.order = docs.length;
      docs.push(doc);
      waiting.push(doc);
    }

    function line(text) { return text.replace(LINE_BREAKS, " "); }

    /* the waiting docs into the fields: each field folded in one go */
    function flush() {
      if (!waiting.length) return;   // an empty part (no rulings of cards) adds no line: each doc is one line
      function append(field, lines) {
        var added = fold(lines.join("\n") + "\n"), base = field.text.length, at = 0;
        while (at < added.length) { field.starts.push(base + at); at = added.indexOf("\n", at) + 1; }
        field.text += added;
      }
      append(NAMES, waiting.map(function (d) {
        var names = d.names.slice();
        d.names.forEach(function (n) { if (APOSTROPHES.test(n)) names.push(n.replace(APOSTROPHES, "")); });
        if (d.label) names.push(d.label);
        if (d.today) names.push(d.today);
        return names.map(line).join("\t");
      }));
      append(TEXT, waiting.map(function (d) { return line(d.text); }));
      if (!waiting.some(function (d) { return d.kind === "r" && !d.rule; })) VOCABULARY.upTo = TEXT.text.length;
      waiting = [];
    }

    /* The words that a typo may stand for: those of the names and of the rules' texts (the
       rulings of cards aside: 2 MB of text), by length, read when a query first needs them and
       then as parts come in (where each field was read up to). */
    var VOCABULARY = { byLength: [], known: new Set(), read: [0, 0], upTo: 0 };
    function vocabulary() {
      [NAMES, TEXT].forEach(function (field, i) {
        var end = i === 0 ? field.text.length : VOCABULARY.upTo;
        if (VOCABULARY.read[i] >= end) return;
        var re = /[\p{L}]{4,}/gu, m, chunk = field.text.slice(VOCABULARY.read[i], end);
        while ((m = re.exec(chunk)) !== null) {
          var w = m[0];
          if (VOCABULARY.known.has(w)) continue;
          VOCABULARY.known.add(w);
          (VOCABULARY.byLength[w.length] = VOCABULARY.byLength[w.length] || []).push(w);
        }
        VOCABULARY.read[i] = end;
      });
      return VOCABULARY;
    }

    /* The edits between two words, up to `most` (more: most + 1): insertions, deletions,
       substitutions and swaps of neighbours (optimal string alignment). */
    function edits(a, b, most) {
      if (Math.abs(a.length - b.length) > most) return most + 1;
      var prev2 = null, prev = [], cur;
      for (var j = 0; j <= b.length; j++) prev.push(j);
      for (var i = 1; i <= a.length; i++) {
        cur = [i];
        var best = i;
        for (var k = 1; k <= b.length; k++) {
          var cost = a[i - 1] === b[k - 1] ? 0 : 1;
          var v = Math.min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + cost);
          if (prev2 && i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) v = Math.min(v, prev2[k - 2] + 1);
          cur.push(v);
          if (v < best) best = v;
        }
        if (best > most) return most + 1;
        prev2 = prev; prev = cur;
      }
      return prev[b.length];
    }

    var MAX_TYPOS = 40;     // the words a typo may stand for, the nearest first
    /* The words a query word may be a typo of: 1 edit from 5 letters on, 2 from 8. */
    function typos(word) {
      if (word.length < 5 || !/^\p{L}+$/u.test(word)) return [];
      var most = word.length >= 8 ? 2 : 1, v = vocabulary(), found = [];
      for (var len = word.length - most; len <= word.length + most; len++) {
        (v.byLength[len] || []).forEach(function (w) {
          if (w === word) return;
          var d = edits(word, w, most);
          if (d <= most) found.push([d, w]);
        });
      }
      found.sort(function (a, b) { return a[0] - b[0] || (a[1] < b[1] ? -1 : 1); });
      return found.slice(0, MAX_TYPOS).map(function (f) { return f[1]; });
    }

    function lineOf(field, doc) {
      var end = doc + 1 < field.starts.length ? field.starts[doc + 1] - 1 : field.text.length - 1;
      return field.text.slice(field.starts[doc], end);
    }

    function docAt(starts, at) {
      var lo = 0, hi = starts.length - 1;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (starts[mid] <= at) lo = mid; else hi = mid - 1; }
      return lo;
    }

    var SPECIALS = /[.*+?^${}()|[\]\\]/g;

    /* the docs with a word that begins with `prefix`, with flags: 1 in the text, 2 in a name, 4 a
       whole word; `whole` (a list of words): the docs with one of these as a whole word, flagged
       8 (a typo's match) besides */
    function lookup(prefix, found, whole) {
      var body = whole ? "(?:" + whole.map(function (w) { return w.replace(SPECIALS, "\\$&"); }).join("|") + ")(?![\\p{L}\\p{N}])"
        : prefix.replace(SPECIALS, "\\$&");
      var re = new RegExp("(?<![\\p{L}\\p{N}])" + body + "(?=([\\p{L}\\p{N}]?))", "gu");
      [[NAMES, 2], [TEXT, 1]].forEach(function (pair) {
        var field = pair[0], flag = pair[1], m;
        re.lastIndex = 0;
        while ((m = re.exec(field.text)) !== null) {
          var doc = docAt(field.starts, m.index), before = found.get(doc) || 0;
          var add = flag | (m[1] === "" ? 4 : 0) | (whole ? 8 : 0);
          if (whole && (before & ~8)) add = 0;          // found as typed: not a typo's match
          found.set(doc, before | add);
        }
      });
      return found;
    }

    function addRules(data) {
      lang = data.lang;
      data.rules.forEach(function (r) {
        var id = r[0], number = r[1], today = r[2], title = r[3], titleLang = r[4], aliases = r[5], units = r[6];
        var page = "rules/" + id + ".html";
        addDoc({ kind: "title", url: page, label: number, today: today, title: title, names: [title].concat(aliases),
                 defines: true, text: "", lang: titleLang, rule: number });
        units.forEach(function (u) {
          var numbered = u[0] === "t" || u[0] === "s";
          addDoc({ kind: u[0], url: page + "#" + u[1], label: numbered ? u[1] : "",
                   today: numbered && today ? today + u[1].slice(number.length) : "",
                   anchor: u[1], title: title, names: u[4], defines: u[4].length > 0, text: u[2], lang: u[3],
                   rule: number });
        });
      });
      data.glossary.forEach(function (g) {
        addDoc({ kind: "glossary", url: "glossary.html#" + g[0], label: "", title: g[1], names: [g[1]].concat(g[3]),
                 text: g[4], lang: g[2] || g[5], rule: "" });
      });
    }

    var cardNames = [];     // each card's name as shown, in the order of the card part
    function addCards(data) {
      var here = data.langs.indexOf(lang);
      data.cards.forEach(function (c) {
        var names = [], shown = here >= 0 && c[here + 1] ? c[here + 1] : c[1];
        cardNames.push(shown);
        for (var i = 1; i < c.length; i++) if (c[i] && names.indexOf(c[i]) < 0) names.push(c[i]);
        addDoc({ kind: "card", url: c[0], label: "", title: shown,
                 names: names, others: names.filter(function (n) { return n !== shown; }),
                 text: "", lang: shown === (here >= 0 ? c[here + 1] : null) ? "" : data.langs[0], rule: "" });
      });
    }

    /* a ruling of cards: [link, its cards (places in the card part), English text, {language: text}];
       shown in the page's language, else in English (marked), else in the one language it has */
    function addRulings(data) {
      data.rulings.forEach(function (r) {
        var text = lang === "en" ? r[2] : r[3][lang], shown = "";
        if (!text) { shown = r[2] ? "en" : Object.keys(r[3])[0]; text = r[2] || r[3][shown]; }
        var title = r[1].map(function (i) { return cardNames[i]; }).join(" · ");
        addDoc({ kind: "r", url: r[0], label: "", title: title, names: [], text: text, lang: shown, rule: "" });
      });
    }

    function addNumbers(data) {
      data.numbers.forEach(function (n) {
        addDoc({ kind: "former", url: "n/" + n + ".html", label: n, title: "", names: [], text: "", lang: "", rule: n });
      });
    }

    // ------------------------------------------------------------------ a query

    /* a name whose words are the query's, each as typed or one of its typos: 2; a name that
       starts with them: 1; else 0 */
    function typoName(name, alts) {
      var ws = words(name);
      if (ws.length < alts.length) return 0;
      for (var i = 0; i < alts.length; i++) if (alts[i].indexOf(ws[i]) < 0) return 0;
      return ws.length === alts.length ? 2 : 1;
    }

    function score(doc, f, terms, flags, phrase, number, alts) {
      var s = WEIGHT[doc.kind] || 0, typo = false;
      for (var i = 0; i < terms.length; i++) {
        var fl = flags[i].get(doc.order);
        if (fl & 8) { typo = true; s -= 8; }
        if (fl & 2) s += fl & 4 ? 20 : 12; else s += fl & 4 ? 4 : 2;
      }
      if (typo) {
        for (var t = 0; t < f.names.length; t++) {
          var hit = typoName(f.names[t], alts);
          if (hit) { s += hit === 2 ? 250 : 100; break; }
        }
      }
      if (number) {
        var label = doc.today && doc.today.lastIndexOf(number, 0) === 0 ? doc.today : doc.label;
        if (label === number) s += doc.kind === "title" ? 1000 : doc.kind === "former" ? 600 : 950;
        else if (label && label.lastIndexOf(number, 0) === 0) s += 400 - Math.min(100, label.length - number.length);
      }
      for (var k = 0; k < f.names.length; k++) {
        var name = f.names[k];
        if (name === phrase) { s += doc.defines ? 340 : 300; break; }   // a rule that defines it, before the glossary
        if (name.lastIndexOf(phrase, 0) === 0) { s += 120; break; }
        if (name.indexOf(phrase) >= 0) { s += 60; break; }
      }
      if (terms.length > 1 && f.text.indexOf(phrase) >= 0) s += 25;
      return s - Math.min(10, doc.text.length / 300);
    }

    var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
    function escape(text) { return text.replace(/[&<>"']/g, function (c) { return ESCAPES[c]; }); }

    /* The text with the query's words marked (<mark>), cut around the first one when long. */
    function snippet(text, terms) {
      if (!text) return "";
      var m = foldMapped(text), marks = [];
      terms.forEach(function (alts) {
        alts.forEach(function (t) {
          var at = 0;
          while ((at = m.text.indexOf(t, at)) >= 0) {
            var before = at === 0 ? "" : m.text[at - 1];
            if (!before || !/[\p{L}\p{N}]/u.test(before)) marks.push([m.from[at], m.from[at + t.length]]);
            at += t.length;
          }
        });
      });
      marks.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
      var start = 0, end = text.length, LIMIT = 320;
      if (text.length > LIMIT) {
        start = marks.length ? Math.max(0, marks[0][0] - 80) : 0;
        if (start > 0) { var space = text.indexOf(" ", start); if (space >= 0 && space < start + 20) start = space + 1; }
        end = Math.min(text.length, start + LIMIT);
      }
      var out = start > 0 ? "… " : "", at2 = start;
      marks.forEach(function (mk) {
        if (mk[0] < at2 || mk[0] >= end) return;
        out += escape(text.slice(at2, mk[0])) + "<mark>" + escape(text.slice(mk[0], Math.min(mk[1], end))) + "</mark>";
        at2 = Math.min(mk[1], end);
      });
      out += escape(text.slice(at2, end)) + (end < text.length ? " …" : "");
      return out;
    }

    /* the docs that every word finds */
    function matching(flags) {
      var order = flags.map(function (_, i) { return i; }).sort(function (a, b) { return flags[a].size - flags[b].size; });
      var found = [];
      flags[order[0]].forEach(function (_, doc) {
        for (var i = 1; i < order.length; i++) if (!flags[order[i]].has(doc)) return;
        found.push(doc);
      });
      return found;
    }

    function query(q) {
      var phraseFolded = fold(q).trim();
      var terms = words(phraseFolded);
      if (!terms.length) return { total: 0, results: [], number: false };
      var phrase = terms.join(" ");
      var number = terms.length === 1 && NUMBER.test(terms[0]) ? terms[0] : null;
      var alts = terms.map(alternatives);
      var flags = alts.map(function (list) {
        var merged = new Map();
        list.forEach(function (t) { lookup(t, merged); });
        return merged;
      });
      var found = matching(flags);
      /* no name holds every word: the words may hold typos */
      if (!number && !found.some(function (doc) { return flags.every(function (fl) { return fl.get(doc) & 2; }); })) {
        var fuzzy = false;
        terms.forEach(function (t, i) {
          var near = typos(t).filter(function (w) { return alts[i].indexOf(w) < 0; });
          if (!near.length) return;
          fuzzy = true;
          lookup(null, flags[i], near);
          alts[i] = alts[i].concat(near);
        });
        if (fuzzy) found = matching(flags);
      }
      var scored = found.map(function (id) {
        var f = { names: lineOf(NAMES, id).split("\t"), text: lineOf(TEXT, id) };
        return [score(docs[id], f, terms, flags, phrase, number, alts), id];
      });
      scored.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
      var results = scored.slice(0, MAX_RESULTS).map(function (sd) {
        var d = docs[sd[1]];
        return { kind: d.kind, url: d.url, label: d.label, today: d.today || "", title: escape(d.title), lang: d.lang, anchor: d.anchor || "",
                 others: (d.others || []).map(escape), rule: d.rule,
                 text: snippet(d.text, alts), titleMarked: snippet(d.title, alts) };
      });
      return { total: found.length, results: results, number: !!number };
    }

    // ------------------------------------------------------------------ loading

    function unpack(base64) {
      var binary = atob(base64), bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).text().then(JSON.parse);
    }

    var queue = Promise.resolve();
    var urls = {};          // where the parts are: rules, cards, rulings, numbers
    var loading = {};

    /* a part of the index (called by the part's script) */
    function addPart(format, part, base64) {
      if (format !== FORMAT) { post({ type: "error", message: "index format " + format + ", not " + FORMAT }); return; }
      var times = { imported: Date.now() };
      queue = queue.then(function () { return unpack(base64); }).then(function (data) {
        times.unpacked = Date.now();
        if (part === "rules") addRules(data); else if (part === "cards") addCards(data);
        else if (part === "rulings") addRulings(data); else addNumbers(data);
        flush();
        parts[part] = true;
        post({ type: "part", part: part, docs: docs.length, unpackMs: times.unpacked - times.imported,
               indexMs: Date.now() - times.unpacked });
        if (part === "rules") fetchPart("cards");
        if (part === "cards") fetchPart("rulings");
        if (last !== null) answer(last);
      }).catch(function (e) { post({ type: "error", message: String(e) }); });
    }
    scope.rulekbSearchPart = addPart;

    /* import a part once (a worker: importScripts; on the page: a script element) */
    function fetchPart(part) {
      if (loading[part] || !urls[part]) return;
      loading[part] = true;
      loadScript(urls[part], function () { post({ type: "missing", part: part, url: urls[part] }); });
    }

    var loadScript = function (url, failed) {
      try { scope.importScripts(url); } catch (e) { failed(); }
    };
    /* from file://, a worker cannot import a file: the page loads the part's script and hands its
       call on (a message "part-data") */
    var relayed = function (url) { post({ type: "need", url: url }); };

    function answer(message) {
      last = message;
      if (!parts.rules) return;
      var started = Date.now();
      var result = query(message.query);
      if (result.number && !parts.numbers) fetchPart("numbers");
      result.type = "result";
      result.id = message.id;
      result.query = message.query;
      result.parts = Object.keys(parts);
      result.ms = Date.now() - started;
      post(result);
    }

    var post = function (message) { scope.postMessage(message); };

    function receive(message) {
      if (message.type === "load") {
        urls = message.urls;
        if (message.relay) loadScript = relayed;
        fetchPart("rules");
      }
      else if (message.type === "part-data") addPart(message.format, message.part, message.base64);
      else if (message.type === "query") answer(message);
    }

    if (typeof scope.importScripts === "function" && typeof scope.document === "undefined") {
      scope.onmessage = function (event) { receive(event.data); };
    } else {
      /* on the page (where no worker starts): rulekb-search.js calls the engine directly */
      scope.rulekbSearchEngine = {
        connect: function (deliver, load) { post = deliver; loadScript = load; },
        receive: receive,
      };
    }
  }

  if (typeof self_.importScripts === "function" && typeof self_.document === "undefined") engine(self_);
  else self_.rulekbSearchEngineCode = engine;
})(self);
