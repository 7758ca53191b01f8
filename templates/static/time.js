// Roost: show each tweet's <time datetime> as a relative date ("5m", "3h", "2d",
// "Jun 10", "Jun 10, 2022" on an English page; "5분", "6월 10일" on a Korean one). The words
// come from the browser's Intl in the page's language (<html lang>), so this file has none.
// The page's own text (the absolute date) stays as a tooltip, and is what shows when scripts
// are off or the browser has no Intl.
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";
  var formats = null;

  function makeFormats() {
    function unit(name) {
      return new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "narrow" });
    }
    return {
      now: new Intl.RelativeTimeFormat(lang, { numeric: "auto" }).format(0, "second"),
      minute: unit("minute"),
      hour: unit("hour"),
      day: unit("day"),
      date: new Intl.DateTimeFormat(lang, { month: "short", day: "numeric" }),
      dateWithYear: new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric" })
    };
  }

  function relative(date, now) {
    var seconds = (now - date) / 1000;
    if (seconds < 0) return null;                       // in the future: keep the absolute date
    if (seconds < 60) return formats.now;
    if (seconds < 3600) return formats.minute.format(Math.floor(seconds / 60));
    if (seconds < 86400) return formats.hour.format(Math.floor(seconds / 3600));
    if (seconds < 7 * 86400) return formats.day.format(Math.floor(seconds / 86400));
    if (date.getFullYear() !== now.getFullYear()) return formats.dateWithYear.format(date);
    return formats.date.format(date);
  }

  function update() {
    try {
      formats = makeFormats();
    } catch (e) {
      return;                                           // no Intl (or not this language): keep the page's text
    }
    var now = new Date();
    var times = document.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      var date = new Date(el.getAttribute("datetime"));
      if (isNaN(date.getTime())) continue;
      if (!el.title) el.title = el.textContent;
      var text = relative(date, now);
      if (text !== null) el.textContent = text;
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", update);
  } else {
    update();
  }
})();
