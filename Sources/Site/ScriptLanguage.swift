import Support

/// Which language a text from the store is in, as far as its letters tell: its script.
/// Text in another script than the site language's carries `lang` on its element
/// (docs/templates.md, "Text in another script"), so that screen readers, fonts and
/// hyphenation treat a Hangul caption on an English site as Korean.
///
///     let en = ScriptLanguage(siteLanguage: "en")
///     en.lang(of: "오늘 #서울 날씨 좋다")  // "ko"
///     en.lang(of: "Hot take: #swift is fun")  // nil: the site's script
///     en.lang(of: "🎉🎉")  // nil: no letters
///
/// The rule: each letter counts for its script (Hangul, kana, Han, Latin, Cyrillic…; digits,
/// punctuation, symbols and emoji count for nothing, nor do URLs and `@mentions`). A Hangul
/// syllable, a kana or a Han character counts three: each writes a syllable or a word where an
/// alphabet needs several letters. Han characters count for Japanese when the text has kana,
/// for Korean when it has Hangul (and no more kana than Hangul), else for Chinese. The script
/// with the largest count gives the text's language, its most common one: Latin `en`, Hangul
/// `ko`, kana `ja`, Han `zh`, Cyrillic `ru`, Greek `el`, Arabic `ar`, Hebrew `he`, Thai `th`,
/// Devanagari `hi`… A tie between the site language's script and another one is the site's.
/// The text gets that language as `lang` only when its script is not the site language's.
package struct ScriptLanguage: Sendable {
    /// The scripts told apart, with the language a text in each is taken to be in.
    package enum Script: Int, Sendable, CaseIterable, Comparable {
        case latin, hangul, japanese, han, cyrillic, greek, arabic, hebrew, thai, devanagari, bengali,
            gurmukhi, gujarati, tamil, telugu, kannada, malayalam, sinhala, lao, tibetan, myanmar,
            georgian, armenian, ethiopic, khmer

        /// The language `lang` names for text in this script: the script's most common one.
        package var language: String {
            switch self {
            case .latin: "en"
            case .hangul: "ko"
            case .japanese: "ja"
            case .han: "zh"
            case .cyrillic: "ru"
            case .greek: "el"
            case .arabic: "ar"
            case .hebrew: "he"
            case .thai: "th"
            case .devanagari: "hi"
            case .bengali: "bn"
            case .gurmukhi: "pa"
            case .gujarati: "gu"
            case .tamil: "ta"
            case .telugu: "te"
            case .kannada: "kn"
            case .malayalam: "ml"
            case .sinhala: "si"
            case .lao: "lo"
            case .tibetan: "bo"
            case .myanmar: "my"
            case .georgian: "ka"
            case .armenian: "hy"
            case .ethiopic: "am"
            case .khmer: "km"
            }
        }

        package static func < (a: Script, b: Script) -> Bool { a.rawValue < b.rawValue }
    }

    /// The site's language, as configured (`en`, `ko-KR`).
    package let siteLanguage: String
    /// The script the site's language is written in; nil when Roost does not know the language.
    package let siteScript: Script?

    package init(siteLanguage: String) {
        self.siteLanguage = siteLanguage
        siteScript = Self.script(ofLanguage: siteLanguage)
    }

    /// The `lang` attribute `text` needs on this site, or nil: when it has no letters, or is in
    /// the site language's script. (Japanese and Chinese sites also write Han: Han alone is
    /// theirs.)
    package func lang(of text: String) -> String? {
        // ASCII text has Latin letters or none: either way nothing to mark on a Latin site.
        // (Every caption of every build: most take this way out without counting.)
        if siteScript == .latin, isASCII(text) { return nil }
        guard let script = Self.script(of: text, preferring: siteScript) else { return nil }
        if script == siteScript { return nil }
        if script == .han, siteScript == .japanese { return nil }
        // A language Roost does not know the script of: compare the languages.
        if siteScript == nil, script.language == Self.primarySubtag(siteLanguage) { return nil }
        return script.language
    }

    /// The script most of `text`'s letters are in (see the type's rule), nil when it has none.
    /// `preferring` wins a tie.
    package static func script(of text: String, preferring preferred: Script? = nil) -> Script? {
        var text = text
        var counts = text.withUTF8(countLetters)
        // Han goes with kana (Japanese) or Hangul (Korean, which may write Hanja) when present.
        let han = counts[Script.han.rawValue]
        let kana = counts[Script.japanese.rawValue]
        let hangul = counts[Script.hangul.rawValue]
        if han > 0, kana > 0 || hangul > 0 {
            counts[(kana >= hangul ? Script.japanese : Script.hangul).rawValue] += han
            counts[Script.han.rawValue] = 0
        }
        guard let best = counts.max(), best > 0 else { return nil }
        if let preferred, counts[preferred.rawValue] == best { return preferred }
        return Script.allCases.first { counts[$0.rawValue] == best }
    }

    /// Each script's letters (weighted) in `utf8`, URLs and mentions left out. On every caption
    /// of every build, so it reads UTF-8 bytes and looks up Unicode's tables only beyond ASCII.
    private static func countLetters(_ utf8: UnsafeBufferPointer<UInt8>) -> [Int] {
        var counts = [Int](repeating: 0, count: Script.allCases.count)
        var skipping = false  // in a URL or a mention, up to the next space
        var previous: UInt32 = 0x20
        func isSpace(_ v: UInt32) -> Bool {
            v < 0x80 ? v == 0x20 || (0x09...0x0D).contains(v) : Unicode.Scalar(v)?.properties.isWhitespace == true
        }
        func follows(_ prefix: StaticString, at i: Int) -> Bool {
            let n = prefix.utf8CodeUnitCount
            guard i + n <= utf8.count else { return false }
            return (0..<n).allSatisfy { utf8[i + $0] == prefix.utf8Start[$0] }
        }
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            var v = UInt32(b)
            var length = 1
            if b >= 0xF0 {
                v =
                    (v & 0x07) << 18 | UInt32(utf8[i + 1] & 0x3F) << 12 | UInt32(utf8[i + 2] & 0x3F) << 6
                    | UInt32(utf8[i + 3] & 0x3F)
                length = 4
            } else if b >= 0xE0 {
                v = (v & 0x0F) << 12 | UInt32(utf8[i + 1] & 0x3F) << 6 | UInt32(utf8[i + 2] & 0x3F)
                length = 3
            } else if b >= 0xC0 {
                v = (v & 0x1F) << 6 | UInt32(utf8[i + 1] & 0x3F)
                length = 2
            }
            defer {
                previous = v
                i += length
            }
            if skipping {
                if isSpace(v) || v == 0x29 || v == 0x3E { skipping = false }  // space ) >
                continue
            }
            let startsWord = isSpace(previous) || previous == 0x28 || previous == 0x3C  // ( <
            if v == 0x40, startsWord {  // @mention
                skipping = true
                continue
            }
            if previous == 0x5D, v == 0x28 {  // ](: a Markdown link's destination
                skipping = true
                continue
            }
            if startsWord, follows("https://", at: i) || follows("http://", at: i) || follows("www.", at: i) {
                skipping = true
                continue
            }
            if v < 0x80 {
                if (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) { counts[Script.latin.rawValue] += 1 }
                continue
            }
            guard let scalar = Unicode.Scalar(v), let (script, weight) = Self.letter(scalar) else { continue }
            // Hangul syllables and Han are all letters; elsewhere a range holds digits and marks too.
            guard weight == 3 && v != 0x30FB || scalar.properties.isAlphabetic else { continue }
            counts[script.rawValue] += weight
        }
        return counts
    }

    /// A letter's script and weight; nil for letters of scripts not told apart.
    static func letter(_ scalar: Unicode.Scalar) -> (Script, Int)? {
        let v = scalar.value
        switch v {
        case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x250...0x2AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF,
            0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFB00...0xFB06, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
            return (.latin, 1)
        case 0x370...0x3FF, 0x1F00...0x1FFF: return (.greek, 1)
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: return (.cyrillic, 1)
        case 0x530...0x58F, 0xFB13...0xFB17: return (.armenian, 1)
        case 0x590...0x5FF, 0xFB1D...0xFB4F: return (.hebrew, 1)
        case 0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return (.arabic, 1)
        case 0x900...0x97F, 0xA8E0...0xA8FF: return (.devanagari, 1)
        case 0x980...0x9FF: return (.bengali, 1)
        case 0xA00...0xA7F: return (.gurmukhi, 1)
        case 0xA80...0xAFF: return (.gujarati, 1)
        case 0xB80...0xBFF: return (.tamil, 1)
        case 0xC00...0xC7F: return (.telugu, 1)
        case 0xC80...0xCFF: return (.kannada, 1)
        case 0xD00...0xD7F: return (.malayalam, 1)
        case 0xD80...0xDFF: return (.sinhala, 1)
        case 0xE00...0xE7F: return (.thai, 1)
        case 0xE80...0xEFF: return (.lao, 1)
        case 0xF00...0xFFF: return (.tibetan, 1)
        case 0x1000...0x109F: return (.myanmar, 1)
        case 0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F: return (.georgian, 1)
        case 0x1200...0x139F, 0x2D80...0x2DDF: return (.ethiopic, 1)
        case 0x1780...0x17FF, 0x19E0...0x19FF: return (.khmer, 1)
        // Hangul: syllables weigh three, jamo written alone (ㅋㅋ) one each.
        case 0xAC00...0xD7A3: return (.hangul, 3)
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xFFA0...0xFFDC: return (.hangul, 1)
        case 0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return (.japanese, 3)
        case 0x3005...0x3007, 0x3021...0x3029, 0x3038...0x303B, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
            0x20000...0x3134F:
            return (.han, 3)
        default: return nil
        }
    }

    /// The script `language` (a BCP 47 tag) is written in; nil when not known.
    package static func script(ofLanguage language: String) -> Script? {
        let subtags = language.split(separator: "-").map { $0.lowercased() }
        guard let primary = subtags.first else { return nil }
        // An explicit script subtag wins: `sr-Latn`, `zh-Hant`.
        for subtag in subtags.dropFirst() where subtag.count == 4 && subtag.allSatisfy(\.isLetter) {
            if let script = scriptSubtags[subtag] { return script }
        }
        if let script = Script.allCases.first(where: { $0.language == primary }) { return script }
        return languageScripts[primary]
    }

    static func primarySubtag(_ language: String) -> String {
        String(language.split(separator: "-").first ?? "").lowercased()
    }

    private static let scriptSubtags: [String: Script] = [
        "latn": .latin, "kore": .hangul, "hang": .hangul, "jpan": .japanese, "hira": .japanese, "kana": .japanese,
        "hani": .han, "hans": .han, "hant": .han, "cyrl": .cyrillic, "grek": .greek, "arab": .arabic,
        "hebr": .hebrew, "thai": .thai, "deva": .devanagari, "beng": .bengali, "guru": .gurmukhi, "gujr": .gujarati,
        "taml": .tamil, "telu": .telugu, "knda": .kannada, "mlym": .malayalam, "sinh": .sinhala, "laoo": .lao,
        "tibt": .tibetan, "mymr": .myanmar, "geor": .georgian, "armn": .armenian, "ethi": .ethiopic, "khmr": .khmer,
    ]

    /// Languages (other than each script's own, above) and the script they are written in.
    private static let languageScripts: [String: Script] = {
        var table: [String: Script] = [:]
        let latin =
            "af az bs ca cs cy da de eo es et eu fi fil fo fr fy ga gd gl ha haw hr ht hu id ig is it jv "
            + "ku la lb lt lv mg mi ms mt nb nl nn no oc pl pt qu rm ro sk sl sm sn so sq sv sw tl tk tr "
            + "uz vi wo xh yo zu"
        for code in latin.split(separator: " ") { table[String(code)] = .latin }
        for code in ["be", "bg", "kk", "ky", "mk", "mn", "sr", "tg", "tt", "uk"] { table[code] = .cyrillic }
        for code in ["fa", "ps", "sd", "ug", "ur"] { table[code] = .arabic }
        for code in ["yi"] { table[code] = .hebrew }
        for code in ["mr", "ne", "sa"] { table[code] = .devanagari }
        for code in ["as"] { table[code] = .bengali }
        for code in ["ti"] { table[code] = .ethiopic }
        for code in ["dz"] { table[code] = .tibetan }
        return table
    }()
}
