/* MiniSearch set up as a candidate for the site's search (issue 32.1's measurement,
   benchmarks/search_engines.py): the options both the index builder (node, at "build" time) and
   the page that loads the prebuilt index use: the same folding as the project's engine (case,
   accents, ß/æ/œ), apostrophes dropped ("Queen's" is "queens"), rule numbers kept as words
   ("702.81a"), prefix search, typos of one edit from 5 letters and two from 8, every word
   required, names (title, aliases, card names, numbers) weighted above texts, and the kinds of
   the project's engine (a rule's title before its subrules before rulings) as document boosts.

   In node: `node search_minisearch.js <minisearch.js> <docs.json> <out.js>` writes the prebuilt
   index as a script calling rulekbMiniIndex("<base64 of the gzipped JSON of the index>"), packed
   as the project's index parts are (on disk it is 4.7 times smaller than the JSON). */
(function (root) {
  "use strict";
  var CHAR_FOLD = { "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
    "đ": "d", "Đ": "d", "ł": "l", "Ł": "l", "ı": "i" };
  var SPECIAL = /[ßẞæÆœŒøØđĐłŁı]/g;
  var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
  var APOSTROPHES = /['’‘ʼ´`]/g;
  var WORD = /[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*/gu;
  var KIND = { title: 2.5, card: 2.3, glossary: 2, t: 1.2, s: 1.2, u: 1, n: 0.8, r: 0.6, former: 0.5 };

  function fold(text) {
    return text.replace(SPECIAL, function (c) { return CHAR_FOLD[c]; }).normalize("NFD").replace(MARKS, "")
      .toLowerCase().replace(APOSTROPHES, "");
  }

  function options() {
    return {
      idField: "id",
      fields: ["names", "text"],
      storeFields: ["kind", "url", "label", "title", "text", "lang"],   // the text: for the snippet, as the project's index ships it
      tokenize: function (text) { return fold(text).match(WORD) || []; },
      processTerm: function (term) { return term; },
      searchOptions: {
        prefix: true,
        fuzzy: function (term) { return term.length >= 8 ? 2 : term.length >= 5 ? 1 : 0; },
        combineWith: "AND",
        boost: { names: 4 },
        boostDocument: function (_id, _term, stored) { return KIND[stored && stored.kind] || 1; },
      },
    };
  }
  root.rulekbMiniOptions = options;

  if (typeof module === "object" && require.main === module) {
    var fs = require("fs");
    var MiniSearch = require(process.argv[2]);
    var docs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
    var started = Date.now();
    var ms = new MiniSearch(options());
    ms.addAll(docs);
    var json = JSON.stringify(ms);
    var packed = require("zlib").gzipSync(Buffer.from(json, "utf8"), { level: 9 }).toString("base64");
    fs.writeFileSync(process.argv[4], "rulekbMiniIndex(\"" + packed + "\");\n");
    process.stdout.write(JSON.stringify({ docs: docs.length, ms: Date.now() - started }) + "\n");
  }
})(typeof self !== "undefined" ? self : globalThis);
