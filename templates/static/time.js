// Roost: show each tweet's <time datetime> as a relative date ("5m", "3h", "2d",
// "Jun 10", "Jun 10, 2022"). The page's own text (the absolute date) stays as a tooltip,
// and is what shows when scripts are off.
(function () {
  "use strict";
  var months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

  function relative(date, now) {
    var seconds = (now - date) / 1000;
    if (seconds < 0) return null;                       // in the future: keep the absolute date
    if (seconds < 60) return "now";
    if (seconds < 3600) return Math.floor(seconds / 60) + "m";
    if (seconds < 86400) return Math.floor(seconds / 3600) + "h";
    if (seconds < 7 * 86400) return Math.floor(seconds / 86400) + "d";
    var text = months[date.getMonth()] + " " + date.getDate();
    if (date.getFullYear() !== now.getFullYear()) text += ", " + date.getFullYear();
    return text;
  }

  function update() {
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
