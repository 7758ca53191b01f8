import Support

/// The files the preview server adds to a site (under `/__roost/`) and the markup it injects into HTML responses.
/// Nothing here is ever written by `build`.
enum LiveReload {
    static let scriptPath = "/__roost/live.js"
    static let stylesheetPath = "/__roost/overlay.css"
    static let eventsPath = "/__roost/events"
    static let overlayID = "roost-error-overlay"

    static let scriptTag = "<script src=\"\(scriptPath)\"></script>"

    static let script = """
        // Live reload for `roost serve`. Served by the preview server only; never part of a built site.
        (function () {
          "use strict";
          if (!window.EventSource) return;
          var source = new EventSource("\(eventsPath)");

          // "u/mina/index.html", "/u/mina/", "/u/mina", "u/mina/index.html" all name the page "u/mina/".
          function pageKey(path) {
            try { path = decodeURIComponent(path); } catch (e) {}
            path = path.replace(/^\\/+/, "").replace(/(^|\\/)index\\.html$/, "$1");
            var last = path.substring(path.lastIndexOf("/") + 1);
            if (last !== "" && last.indexOf(".") < 0) path += "/";
            return path;
          }
          function isAsset(key) { return /\\.(css|m?js|svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf)$/i.test(key); }
          function isPage(key) { return key === "" || /\\/$/.test(key) || /\\.html?$/i.test(key); }

          var here = pageKey(location.pathname);
          // The files this page loaded (its stylesheets, scripts, images, fonts, fetches), as
          // the browser's resource timing lists them; null when it cannot tell (no such list,
          // or one that may have overflowed).
          var resourceLimit = 1000;
          var timing = window.performance && performance.getEntriesByType && performance.setResourceTimingBufferSize;
          // (The list holds 250 by default: one that full before this ran may have lost some.)
          var overflowed = timing && performance.getEntriesByType("resource").length >= 250;
          if (timing) performance.setResourceTimingBufferSize(resourceLimit);
          function loadedFiles() {
            if (!timing || overflowed) return null;
            var entries = performance.getEntriesByType("resource");
            if (entries.length >= resourceLimit) return null;
            var keys = {};
            for (var i = 0; i < entries.length; i++) {
              try { keys[pageKey(new URL(entries[i].name).pathname)] = true; } catch (e) {}
            }
            return keys;
          }
          function concernsThisPage(paths) {
            var loaded;
            for (var i = 0; i < paths.length; i++) {
              var path = String(paths[i]);
              if (path === "*") return true;
              var key = pageKey(path);
              if (key === here) return true;
              // A stylesheet, a script, an image or a font this page loaded; not a feed, a
              // sitemap, or another page's files (the search's index, fetched by its page).
              if (!isPage(key) && isAsset(key)) {
                if (loaded === undefined) loaded = loadedFiles();
                if (loaded === null || loaded[key]) return true;
              }
            }
            return false;
          }

          source.addEventListener("change", function (event) {
            var paths;
            try { paths = JSON.parse(event.data); } catch (e) { paths = ["*"]; }
            if (!Array.isArray(paths)) paths = [paths];
            if (concernsThisPage(paths)) location.reload();
          });

          function showError(heading, text) {
            if (!document.querySelector('link[href="\(stylesheetPath)"]')) {
              var link = document.createElement("link");
              link.rel = "stylesheet";
              link.href = "\(stylesheetPath)";
              (document.head || document.documentElement).appendChild(link);
            }
            var box = document.getElementById("\(overlayID)");
            if (!box) {
              box = document.createElement("div");
              box.id = "\(overlayID)";
              box.setAttribute("role", "alert");
              box.appendChild(document.createElement("strong"));
              box.appendChild(document.createElement("pre"));
              document.body.appendChild(box);
            }
            box.querySelector("strong").textContent = heading;
            box.querySelector("pre").textContent = text;
          }

          // Roost's "error" events carry data; the EventSource's own connection errors do not.
          source.addEventListener("error", function (event) {
            if (typeof event.data !== "string") return;
            var data;
            try { data = JSON.parse(event.data); } catch (e) { data = event.data; }
            // A bare string is a build error; an object names its kind.
            if (data && typeof data === "object") showError(String(data.title), String(data.text));
            else showError("Build error", String(data));
          });
        })();

        """

    static let stylesheet = """
        /* The build-error overlay of `roost serve`. */
        #\(overlayID) {
          position: fixed;
          left: 1rem;
          right: 1rem;
          bottom: 1rem;
          z-index: 2147483647;
          max-height: 60vh;
          overflow: auto;
          box-sizing: border-box;
          padding: 1rem 1.25rem;
          border: 2px solid #c62828;
          border-radius: 8px;
          background: #fff5f5;
          color: #3b0a0a;
          box-shadow: 0 8px 24px rgba(0, 0, 0, 0.25);
          font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
          text-align: left;
        }
        #\(overlayID) strong {
          display: block;
          margin-bottom: 0.5rem;
          color: #c62828;
          font: 600 15px/1.3 system-ui, -apple-system, "Segoe UI", sans-serif;
        }
        #\(overlayID) pre {
          margin: 0;
          white-space: pre-wrap;
          overflow-wrap: anywhere;
          font: inherit;
        }
        @media (prefers-color-scheme: dark) {
          #\(overlayID) { background: #2a1010; color: #ffdede; border-color: #ef5350; }
          #\(overlayID) strong { color: #ef9a9a; }
        }

        """

    /// The overlay markup for an error message under its title (both HTML-escaped).
    static func overlay(_ message: String, title: String = "Build error") -> String {
        "<link rel=\"stylesheet\" href=\"\(stylesheetPath)\">"
            + "<div id=\"\(overlayID)\" role=\"alert\"><strong>\(MarkupEscape.escaped(title))</strong>"
            + "<pre>\(MarkupEscape.escaped(message))</pre></div>"
    }

    /// `html` with the live-reload script (and the overlay, when there is an error) inserted before
    /// the last `</body>` (ASCII case-insensitive), or appended when there is none.
    static func inject(into html: [UInt8], error: (title: String, message: String)?) -> [UInt8] {
        var addition = ""
        if let error { addition += overlay(error.message, title: error.title) }
        addition += scriptTag
        let insert = Array(addition.utf8)
        guard let at = lastBodyClose(in: html) else { return html + insert }
        var out = [UInt8]()
        out.reserveCapacity(html.count + insert.count)
        out.append(contentsOf: html[..<at])
        out.append(contentsOf: insert)
        out.append(contentsOf: html[at...])
        return out
    }

    private static func lastBodyClose(in html: [UInt8]) -> Int? {
        let needle = Array("</body".utf8)
        guard html.count >= needle.count else { return nil }
        var i = html.count - needle.count
        while i >= 0 {
            var match = true
            for j in 0..<needle.count {
                var byte = html[i + j]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                if byte != needle[j] {
                    match = false
                    break
                }
            }
            if match {
                let next = i + needle.count
                if next == html.count || html[next] == UInt8(ascii: ">") || html[next] == 0x20
                    || html[next] == 0x09 || html[next] == 0x0A || html[next] == 0x0D
                {
                    return i
                }
            }
            i -= 1
        }
        return nil
    }

    /// A JSON string literal (for SSE `data:` lines: never contains a raw newline).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func jsonArray(_ items: [String]) -> String {
        "[" + items.map(jsonString).joined(separator: ",") + "]"
    }

    /// One server-sent event.
    static func event(_ name: String, data: String) -> [UInt8] {
        Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }
}
