// Roost: the search page (SPEC 8). Reads ?q= and &page= from the address, loads only the
// index files the query needs as plain <script src> files (each calls one function of
// window.roostSearch below), so it works from file:// and under script-src 'self': no fetch,
// no modules. Results are built with DOM calls (textContent, setAttribute), never by parsing
// markup. The words shown come from the page (<template id="search-words">).
//
// The rules (the same as Sources/Search/SearchText.swift): a word is a maximal run of
// letters, marks, digits and "_"; text is folded with NFC, then each code point's own
// lowercase, "ς" as "σ", then NFC again. Index keys: folded words, "@name", "#tag",
// ">handle" (author), "!reply". Tweets are numbered oldest first; results are shown by
// descending number (newest first, ties by ID).
(function () {
  "use strict";

  var ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
  var DIGIT = {};
  for (var a = 0; a < ALPHABET.length; a++) DIGIT[ALPHABET.charAt(a)] = a;
  var WORD = /[\p{L}\p{M}\p{N}_]+/gu;
  var MAX_USERS = 5;
  var DAY = 86400000;

  var manifest = null;
  var days = null;
  var terms = {};     // shard path → [key, tweets, users, key, …]
  var docs = {};      // bucket → records
  var people = {};    // bucket → records
  var loaded = {};    // script path → true once it ran
  var waiting = {};   // script path → callbacks
  var failedPaths = {};

  // What the index files call. `loaded` lists the files this page loaded (for tests and
  // the benchmark).
  window.roostSearch = {
    index: function (m) { manifest = m; },
    days: function (d) { days = d; },
    terms: function (path, items) { terms[path] = items; },
    docs: function (bucket, records) { docs[bucket] = records; },
    users: function (bucket, records) { people[bucket] = records; },
    loaded: [],
    // performance.now() when the query's term shards had all arrived, and when the results were shown.
    timing: {},
    fold: fold,
    words: words
  };

  function fold(text) {
    var out = "";
    for (var ch of text.normalize("NFC")) out += ch === "\u03C2" ? "\u03C3" : ch.toLowerCase();
    return out.normalize("NFC");
  }

  function words(text) {
    return fold(text).match(WORD) || [];
  }

  // ---- Loading script files ----

  function load(paths, done) {
    var left = 0;
    var failed = false;
    function finish(ok) {
      if (!ok) failed = true;
      if (--left === 0) done(!failed);
    }
    paths = paths.filter(function (p, i) { return paths.indexOf(p) === i; });
    left = paths.length + 1;
    paths.forEach(function (path) {
      if (loaded[path]) return finish(true);
      if (failedPaths[path]) return finish(false);
      if (waiting[path]) return waiting[path].push(finish);
      waiting[path] = [finish];
      var script = document.createElement("script");
      script.src = path;
      script.onload = function () { settle(path, true); };
      script.onerror = function () { settle(path, false); };
      document.head.appendChild(script);
    });
    finish(true);
  }

  function settle(path, ok) {
    if (ok) {
      loaded[path] = true;
      window.roostSearch.loaded.push(path);
    } else {
      failedPaths[path] = true;
    }
    var callbacks = waiting[path] || [];
    delete waiting[path];
    callbacks.forEach(function (callback) { callback(ok); });
  }

  // ---- The query ----

  // Terms and operators separated by spaces; every one must match (SPEC 8).
  function parse(q) {
    var query = { words: [], keys: [], reply: false, notReply: false, since: null, until: null, impossible: false };
    q.split(/\s+/).forEach(function (token) {
      if (!token) return;
      var lower = token.toLowerCase();
      var m;
      if (lower === "is:reply") {
        query.reply = true;
      } else if (lower === "-is:reply") {
        query.notReply = true;
      } else if ((m = /^(from:|@|#)(.+)$/i.exec(token))) {
        var prefix = m[1].toLowerCase() === "from:" ? ">" : m[1];
        var name = fold(m[2]);
        query.keys.push(prefix + (prefix === ">" && name.charAt(0) === "@" ? name.slice(1) : name));
      } else if ((m = /^(since|until):(\d{4})-(\d{2})-(\d{2})$/i.exec(token)) && validDate(m)) {
        var day = Date.UTC(+m[2], +m[3] - 1, +m[4]) / DAY;
        if (m[1].toLowerCase() === "since") {
          query.since = query.since === null ? day : Math.max(query.since, day);
        } else {
          query.until = query.until === null ? day : Math.min(query.until, day);
        }
      } else {
        words(token).forEach(function (w) { query.words.push(w); });
      }
    });
    if (query.reply && query.notReply) query.impossible = true;
    query.isEmpty = !query.words.length && !query.keys.length && !query.reply && !query.notReply
      && query.since === null && query.until === null;
    return query;
  }

  function validDate(m) {
    var date = new Date(Date.UTC(+m[2], +m[3] - 1, +m[4]));
    return date.getUTCFullYear() === +m[2] && date.getUTCMonth() === +m[3] - 1 && date.getUTCDate() === +m[4];
  }

  // The shard a key would be in, and (for a prefix) the ones after it its range reaches.
  function shardsFor(key, prefix) {
    var list = manifest.shards;
    var lo = 0;
    var hi = list.length / 2 - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (list[2 * mid] <= key) lo = mid; else hi = mid - 1;
    }
    var found = [lo];
    if (prefix) {
      for (var i = lo + 1; i < list.length / 2 && list[2 * i].lastIndexOf(key, 0) === 0; i++) found.push(i);
    }
    return found.map(function (i) { return "search/" + list[2 * i + 1]; });
  }

  function decode(code, each) {
    var i;
    if (code.charAt(0) === "~") {
      for (i = 1; i < code.length; i++) {
        var bits = DIGIT[code.charAt(i)];
        for (var j = 0; j < 6; j++) if (bits & (1 << j)) each((i - 1) * 6 + j);
      }
      return;
    }
    var previous = -1;
    var value = 0;
    for (i = 0; i < code.length; i++) {
      var digit = DIGIT[code.charAt(i)];
      if (digit >= 32) {
        value = value * 32 + digit - 32;
      } else {
        previous += value * 32 + digit + 1;
        each(previous);
        value = 0;
      }
    }
  }

  // Marks (1) in `tweets` and `users` the numbers of every key equal to `key` (or starting with it).
  function lookUp(key, prefix, tweets, users) {
    shardsFor(key, prefix).forEach(function (path) {
      var items = terms[path] || [];
      for (var i = 0; i < items.length; i += 3) {
        var k = items[i];
        if (prefix ? k.lastIndexOf(key, 0) === 0 : k === key) {
          decode(items[i + 1], function (n) { tweets[n] = 1; });
          if (users) decode(items[i + 2], function (n) { users[n] = 1; });
        }
      }
    });
  }

  function firstOnOrAfter(day) {
    // days: [day, first number, …], oldest first.
    for (var i = 0; i < days.length; i += 2) if (days[i] >= day) return days[i + 1];
    return manifest.tweets;
  }

  // The matching tweet numbers, newest first, and user numbers.
  function evaluate(query) {
    var count = manifest.tweets;
    var lo = query.since === null ? 0 : firstOnOrAfter(query.since);
    var hi = query.until === null ? count : firstOnOrAfter(query.until);
    var match = new Uint8Array(count);
    for (var n = lo; n < hi; n++) match[n] = 1;
    var userMatch = query.words.length ? new Uint8Array(manifest.users).fill(1) : null;
    function and(fill, withUsers) {
      var tweets = new Uint8Array(count);
      var users = withUsers ? new Uint8Array(manifest.users) : null;
      fill(tweets, users);
      for (var n = lo; n < hi; n++) match[n] &= tweets[n];
      if (users) for (var u = 0; u < users.length; u++) userMatch[u] &= users[u];
    }
    query.words.forEach(function (w) { and(function (t, u) { lookUp(w, true, t, u); }, true); });
    query.keys.forEach(function (k) { and(function (t) { lookUp(k, false, t, null); }, false); });
    if (query.reply || query.notReply) {
      var replies = new Uint8Array(count);
      lookUp("!reply", false, replies, null);
      for (n = lo; n < hi; n++) match[n] &= query.reply ? replies[n] : 1 - replies[n];
    }
    var result = [];
    if (!query.impossible) for (n = hi - 1; n >= lo; n--) if (match[n]) result.push(n);
    var users = [];
    if (userMatch) for (var u = 0; u < userMatch.length && users.length < MAX_USERS; u++) if (userMatch[u]) users.push(u);
    return { tweets: result, users: users };
  }

  function neededShards(query) {
    var paths = [];
    query.words.forEach(function (w) { paths = paths.concat(shardsFor(w, true)); });
    query.keys.forEach(function (k) { paths = paths.concat(shardsFor(k, false)); });
    if (query.reply || query.notReply) paths = paths.concat(shardsFor("!reply", false));
    if (query.since !== null || query.until !== null) paths.push("search/days.js");
    return paths;
  }

  // ---- The page ----

  var el = {};
  var wordsOf = {};
  var run = 0;

  function word(key) { return wordsOf[key] || ""; }

  function setStatus(text) { el.status.textContent = text; }

  function params() {
    var search = new URLSearchParams(location.search);
    var page = parseInt(search.get("page") || "1", 10);
    return { q: search.get("q") || "", page: page > 0 ? page : 1 };
  }

  function pageURL(q, page) {
    return "search/index.html?q=" + encodeURIComponent(q) + (page > 1 ? "&page=" + page : "");
  }

  function show() {
    var token = ++run;
    var p = params();
    el.input.value = p.q;
    var header = document.getElementById("site-search-q");
    if (header) header.value = p.q;
    el.results.textContent = "";
    el.users.textContent = "";
    el.usersSection.hidden = true;
    el.tweetsSection.hidden = true;
    el.pager.hidden = true;
    if (!manifest) return setStatus(word("failed"));
    var query = parse(p.q);
    if (query.isEmpty) return setStatus(p.q.trim() ? word("none").replace("{0}", function () { return p.q; }) : word("empty"));
    setStatus(word("loading"));
    load(neededShards(query), function (ok) {
      if (token !== run) return;
      if (!ok) return setStatus(word("failed"));
      var timing = window.roostSearch.timing = { shards: performance.now() };
      var found = evaluate(query);
      timing.evaluated = performance.now();
      var size = parseInt(el.results.getAttribute("data-page-size"), 10) || 20;
      var pages = Math.max(1, Math.ceil(found.tweets.length / size));
      var page = Math.min(p.page, pages);
      var slice = found.tweets.slice((page - 1) * size, page * size);
      var files = slice.map(function (n) { return "search/d/" + Math.floor(n / manifest.docBucket) + ".js"; })
        .concat(found.users.map(function (u) { return "search/u/" + Math.floor(u / manifest.userBucket) + ".js"; }));
      load(files, function (ok) {
        if (token !== run) return;
        if (!ok) return setStatus(word("failed"));
        render(p.q, found, slice, page, pages);
        timing.shown = performance.now();
      });
    });
  }

  function render(q, found, slice, page, pages) {
    found.users.forEach(function (u) {
      el.users.appendChild(userItem(people[Math.floor(u / manifest.userBucket)][u % manifest.userBucket]));
    });
    el.usersSection.hidden = !found.users.length;
    slice.forEach(function (n) {
      el.results.appendChild(card(docs[Math.floor(n / manifest.docBucket)][n % manifest.docBucket]));
    });
    el.tweetsSection.hidden = !slice.length;
    el.results.setAttribute("data-count", String(found.tweets.length));
    var count = found.tweets.length;
    if (!count) {
      setStatus(word("none").replace("{0}", function () { return q; }));
    } else {
      setStatus(count === 1 ? word("countOne") : word("countOther").replace("{0}", String(count)));
    }
    if (pages > 1) {
      el.pager.hidden = false;
      pagerLink(el.newer, q, page > 1 ? page - 1 : 0);
      pagerLink(el.older, q, page < pages ? page + 1 : 0);
    }
  }

  function pagerLink(link, q, page) {
    link.hidden = !page;
    if (page) link.setAttribute("href", pageURL(q, page));
  }

  // ---- DOM builders (the markup of partials/card.mustache) ----

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function avatar(src, lazy) {
    var img = make("img", "u-photo avatar");
    img.setAttribute("src", src);
    img.setAttribute("alt", "");
    img.setAttribute("width", "48");
    img.setAttribute("height", "48");
    if (lazy) {
      img.setAttribute("loading", "lazy");
      img.setAttribute("decoding", "async");
      img.setAttribute("referrerpolicy", "no-referrer");
    }
    return img;
  }

  function withLang(node, lang) {
    if (lang) node.setAttribute("lang", lang);
    return node;
  }

  function userItem(user) {
    var li = make("li", "search-user p-author h-card");
    var link = make("a", "u-url author-link");
    link.setAttribute("href", user.h);
    link.appendChild(avatar(user.a, true));
    link.appendChild(withLang(make("span", "p-name name", user.n), user.nl));
    link.appendChild(document.createTextNode(" "));
    link.appendChild(withLang(make("span", "p-nickname handle", "@" + user.u), user.ul));
    li.appendChild(link);
    return li;
  }

  function card(t) {
    var article = make("article", "h-entry card");
    article.setAttribute("data-tweet-id", t.i);
    article.setAttribute("data-likes", String(t.l));
    if (t.k) article.setAttribute("data-liked", "true");

    var head = make("header", "card-head");
    if (!t.a) {
      var missing = make("span", "p-author h-card author is-missing");
      missing.appendChild(avatar("static/avatar.svg", false));
      missing.appendChild(make("span", "p-name name", word("unknownUser")));
      head.appendChild(missing);
    } else {
      var author = make("span", "p-author h-card author");
      var link = make("a", "author-link");
      link.setAttribute("href", t.a.h);
      link.appendChild(avatar(t.a.a, true));
      link.appendChild(withLang(make("span", "p-name name", t.a.n), t.a.nl));
      author.appendChild(link);
      author.appendChild(document.createTextNode(" "));
      var handle = withLang(make("a", "u-url p-nickname handle", "@" + t.a.u), t.a.ul);
      handle.setAttribute("href", t.a.h);
      author.appendChild(handle);
      head.appendChild(author);
    }
    var sep = make("span", "sep", "·");
    sep.setAttribute("aria-hidden", "true");
    head.appendChild(document.createTextNode(" "));
    head.appendChild(sep);
    head.appendChild(document.createTextNode(" "));
    var permalink = make("a", "u-url permalink");
    permalink.setAttribute("href", t.u);
    var time = make("time", "dt-published", t.d);
    time.setAttribute("datetime", t.p);
    permalink.appendChild(time);
    head.appendChild(permalink);
    article.appendChild(head);

    if (t.t) {
      var reply = make("p", "reply-to");
      if (t.t.m) {
        reply.textContent = word("replyingToDeleted");
      } else {
        var target;
        if (t.t.n) {
          target = document.createTextNode(word("unknownUser"));
        } else {
          target = make("a", null, "@" + t.t.u);
          target.setAttribute("href", t.t.h);
        }
        var parts = word("replyingTo").split("{0}");
        reply.appendChild(document.createTextNode(parts[0]));
        reply.appendChild(target);
        reply.appendChild(document.createTextNode(parts.slice(1).join("")));
      }
      article.appendChild(reply);
    }

    var caption = withLang(make("div", "e-content caption"), t.g);
    t.c.forEach(function (node) { tree(node, caption); });
    article.appendChild(caption);

    var foot = make("footer", "card-foot");
    var replies = make("a", "replies");
    replies.setAttribute("href", t.u);
    replies.appendChild(icon("icon-reply"));
    replies.appendChild(make("span", "visually-hidden", word("replies")));
    replies.appendChild(document.createTextNode(" "));
    replies.appendChild(make("span", "count", String(t.r)));
    foot.appendChild(replies);
    foot.appendChild(document.createTextNode(" "));
    var likes = make("span", t.k ? "likes is-liked" : "likes");
    likes.appendChild(icon("icon-heart"));
    likes.appendChild(make("span", "visually-hidden", word("likes")));
    likes.appendChild(document.createTextNode(" "));
    likes.appendChild(make("span", "count", String(t.l)));
    if (t.k) likes.appendChild(make("span", "visually-hidden", word("likedByYou")));
    foot.appendChild(likes);
    article.appendChild(foot);
    return article;
  }

  function icon(name) {
    var span = make("span", "icon " + name);
    span.setAttribute("aria-hidden", "true");
    return span;
  }

  // The caption's tree (Sources/Site/CaptionTree.swift): only these tags and attributes.
  var TAGS = { p: 1, strong: 1, em: 1, code: 1, pre: 1, a: 1, br: 1, ul: 1, ol: 1, li: 1, blockquote: 1, hr: 1, del: 1,
    img: 1 };
  var ATTRIBUTES = { href: 1, rel: 1, "class": 1, start: 1, lang: 1, src: 1, alt: 1, title: 1, width: 1, height: 1,
    loading: 1, decoding: 1, referrerpolicy: 1 };

  function tree(node, parent) {
    if (typeof node === "string") return parent.appendChild(document.createTextNode(node));
    var tag = node[0];
    var element = TAGS.hasOwnProperty(tag) ? document.createElement(tag) : document.createElement("span");
    var start = 1;
    if (node.length > 1 && node[1] && typeof node[1] === "object" && !Array.isArray(node[1])) {
      var attributes = node[1];
      for (var name in attributes) {
        if (!attributes.hasOwnProperty(name) || !ATTRIBUTES.hasOwnProperty(name)) continue;
        var value = String(attributes[name]);
        if ((name === "href" || name === "src") && /^\s*(javascript|vbscript|data|file):/i.test(value)) continue;
        element.setAttribute(name, value);
      }
      start = 2;
    }
    for (var i = start; i < node.length; i++) tree(node[i], element);
    parent.appendChild(element);
  }

  // ---- Start ----

  function navigate(q, page) {
    var url = location.href.split("#")[0].split("?")[0] + "?q=" + encodeURIComponent(q) + (page > 1 ? "&page=" + page : "");
    try {
      history.pushState(null, "", url);
    } catch (e) {
      location.assign(url);                               // no history API here (some file:// cases)
      return;
    }
    show();
  }

  function start() {
    el.form = document.getElementById("search-form");
    if (!el.form) return;
    el.input = document.getElementById("search-q");
    el.status = document.getElementById("search-status");
    el.users = document.getElementById("search-users");
    el.usersSection = document.getElementById("search-users-section");
    el.results = document.getElementById("search-results");
    el.tweetsSection = document.getElementById("search-tweets-section");
    el.pager = document.getElementById("search-pager");
    el.newer = document.getElementById("search-newer");
    el.older = document.getElementById("search-older");
    var template = document.getElementById("search-words");
    var spans = template.content.querySelectorAll("[data-key]");
    for (var i = 0; i < spans.length; i++) wordsOf[spans[i].getAttribute("data-key")] = spans[i].textContent;

    el.form.addEventListener("submit", function (event) {
      event.preventDefault();
      navigate(el.input.value, 1);
    });
    el.pager.addEventListener("click", function (event) {
      var link = event.target.closest("a");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
      event.preventDefault();
      var target = new URLSearchParams(link.getAttribute("href").split("?")[1] || "");
      navigate(target.get("q") || "", parseInt(target.get("page") || "1", 10));
      el.status.focus();
    });
    window.addEventListener("popstate", show);
    show();
  }

  // Deferred scripts run before DOMContentLoaded, search/index.js after this one: start then.
  if (document.readyState === "complete") {
    start();
  } else {
    document.addEventListener("DOMContentLoaded", start);
  }
})();
