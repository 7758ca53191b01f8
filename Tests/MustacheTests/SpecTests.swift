import Foundation
import Mustache
import Synchronization
import TestSupport
import Testing

/// One case of one file of the official Mustache specification.
struct SpecCase: Sendable, CustomTestStringConvertible {
    let file: String
    let name: String
    let template: String
    let partials: [String: String]
    let data: MustacheValue
    let expected: String
    /// Why the case is not run, if it is not.
    let skipReason: String?

    var testDescription: String { "\(file): \(name)" }

    /// In the shared test data (`ROOST_SHARED`, see `SharedData`), not in the repository.
    static let folder = "mustache-spec"
    static let directory = SharedData.path(folder)
    /// Run when the folder is there, or when it is required (then its absence fails).
    static let isEnabled = ConditionTrait.enabled(
        if: SharedData.shouldRun(folder), Comment(rawValue: SharedData.skipReason(folder)))

    static let all: [SpecCase] = load()

    static func load() -> [SpecCase] {
        let fm = FileManager.default
        guard let files = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var cases: [SpecCase] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = fm.contents(atPath: directory + "/" + file),
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let tests = json["tests"] as? [[String: Any]]
            else {
                cases.append(
                    SpecCase(
                        file: file, name: "(unreadable)", template: "", partials: [:], data: .null,
                        expected: "<\(file) could not be read as a spec file>", skipReason: nil))
                continue
            }
            for test in tests {
                let name = test["name"] as? String ?? "?"
                var value = MustacheValue(any: test["data"])
                var skip: String? = nil
                if file == "~lambdas.json" {
                    if SpecLambdas.lambda(for: name) != nil {
                        value = SpecLambdas.removingLambda(from: test["data"])
                    } else {
                        skip = "no Swift closure written for this lambda case"
                    }
                }
                cases.append(
                    SpecCase(
                        file: file, name: name,
                        template: test["template"] as? String ?? "",
                        partials: test["partials"] as? [String: String] ?? [:],
                        data: value,
                        expected: test["expected"] as? String ?? "",
                        skipReason: skip))
            }
        }
        return cases
    }

    /// The rendered output, or the error's description.
    func run() -> Result<String, Error> {
        Result {
            var templates = partials
            let main = "<spec template>"
            templates[main] = template
            let library = try TemplateLibrary(templates: templates, missingPartials: .renderEmpty)
            var data = self.data
            // A fresh closure per run: some lambdas count their calls.
            if let lambda = SpecLambdas.lambda(for: name), file == "~lambdas.json",
                case .object(let object) = data, var values = object as? [String: MustacheValue]
            {
                values["lambda"] = .lambda(lambda)
                data = .object(values)
            }
            return try library.renderString(main, data)
        }
    }
}

/// The spec's lambdas carry source in other languages; these are the same
/// functions as Swift closures, keyed by test name.
enum SpecLambdas {
    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock { value in
                value += 1
                return value
            }
        }
    }

    static func lambda(for name: String) -> MustacheLambda? {
        switch name {
        case "Interpolation": return MustacheLambda { "world" }
        case "Interpolation - Expansion": return MustacheLambda { "{{planet}}" }
        case "Interpolation - Alternate Delimiters": return MustacheLambda { "|planet| => {{planet}}" }
        case "Interpolation - Multiple Calls":
            let counter = Counter()
            return MustacheLambda { String(counter.next()) }
        case "Escaping": return MustacheLambda { ">" }
        case "Section": return MustacheLambda { (text: String) in text == "{{x}}" ? "yes" : "no" }
        case "Section - Expansion": return MustacheLambda { (text: String) in text + "{{planet}}" + text }
        case "Section - Alternate Delimiters":
            return MustacheLambda { (text: String) in text + "{{planet}} => |planet|" + text }
        case "Section - Multiple Calls": return MustacheLambda { (text: String) in "__" + text + "__" }
        case "Inverted Section": return MustacheLambda { (_: String) in "" }
        default: return nil
        }
    }

    static func removingLambda(from data: Any?) -> MustacheValue {
        guard var dict = data as? [String: Any] else { return MustacheValue(any: data) }
        dict.removeValue(forKey: "lambda")
        return MustacheValue(any: dict)
    }
}

/// Loud when the spec is missing and not required: a warning in the test output, not a failure.
@Test func specDirectoryNotice() {
    if !SharedData.shouldRun(SpecCase.folder) {
        print("⚠️  Mustache spec tests \(SharedData.skipReason(SpecCase.folder))")
        Issue.record(
            Comment(rawValue: "Mustache spec tests " + SharedData.skipReason(SpecCase.folder)), severity: .warning)
    }
}

@Test(SpecCase.isEnabled) func specDirectoryIsPresent() {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: SpecCase.directory, isDirectory: &isDirectory)
    #expect(
        exists && isDirectory.boolValue,
        "Mustache spec directory not found: looked in \(SpecCase.directory) (set ROOST_SHARED)")
    #expect(!SpecCase.all.isEmpty, "no spec cases found in \(SpecCase.directory)")
}

@Test(SpecCase.isEnabled, arguments: SpecCase.all)
func specCase(_ spec: SpecCase) throws {
    if let reason = spec.skipReason {
        // A warning, so that the case shows as not run rather than as passed.
        Issue.record(Comment(rawValue: "not run: \(reason)"), severity: .warning)
        return
    }
    switch spec.run() {
    case .success(let output):
        #expect(output == spec.expected, "\(spec.file) \(spec.name): template \(spec.template.debugDescription)")
    case .failure(let error):
        Issue.record("\(spec.file) \(spec.name): \(error)")
    }
}

@Test(SpecCase.isEnabled) func specSummary() {
    var passed = 0
    var failed = 0
    var skipped = 0
    for spec in SpecCase.all {
        if let reason = spec.skipReason {
            skipped += 1
            print("skipped \(spec.file) \(spec.name): \(reason)")
            continue
        }
        if case .success(let output) = spec.run(), output == spec.expected { passed += 1 } else { failed += 1 }
    }
    print("mustache spec: \(passed) passed, \(failed) failed, \(skipped) skipped")
    #expect(failed == 0)
    #expect(passed > 0, "no spec case ran (looked in \(SpecCase.directory))")
}
