// swift-tools-version: 6.0
// Roost: store → model → site plan → render → output, with the CLI on top.
import PackageDescription

let package = Package(
    name: "Roost",
    products: [
        .executable(name: "roost", targets: ["roost"])
    ],
    targets: [
        // What several stages need, written once: stable hashing, errno text, HTML escaping,
        // listing a folder, an owned file descriptor, work on all cores, a file put in place
        // of another. Depends on nothing but glibc's renameat2 (`CRename`: Swift's Glibc
        // module does not declare it).
        .target(name: "CRename"),
        .target(name: "Support", dependencies: ["CRename"]),
        // Stage 0: a small JSON parser that reports line and column (Foundation's gives a byte offset only).
        .target(name: "JSON"),
        // Watching folders and files with inotify, changes in debounced batches: knows no store.
        .target(name: "Watch", dependencies: ["Support"]),
        // Stage 1: document sources (a folder, an export file) → documents, stamps and changes.
        .target(name: "Store", dependencies: ["JSON", "Watch", "Support"]),
        // Protobuf's wire format read field by field (and written): export folders' records,
        // the listen stream's messages. Knows no schema; depends on nothing.
        .target(name: "Protobuf"),
        // Stage 1 too: export folders (`gcloud firestore export`, the emulator's): LevelDB log
        // files of Datastore entities, every record checked, as a document source.
        .target(name: "FirestoreExport", dependencies: ["Protobuf", "JSON", "Store", "Watch", "Support"]),
        // The listen stream's messages (requests written, responses read) and the listener's
        // state machine, as the official clients keep it: no network.
        .target(name: "FirestoreListen", dependencies: ["Protobuf", "Store", "Support"]),
        // Stage 2: documents → users, tweets, likes, favorites and everything derived.
        // (Markdown finds hashtags exactly where the renderer will link them.)
        .target(name: "Model", dependencies: ["Store", "Markdown", "Support"], linkerSettings: [.linkedLibrary("m")]),
        // Markdown captions through Debian's libcmark.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        .target(name: "Markdown", dependencies: ["CCmark", "Support"]),
        // Templates: a Mustache engine written from the specification.
        .target(name: "Mustache", dependencies: ["Support"]),
        // The search index (SPEC 8): the word rule, folding, term shards as script files.
        .target(name: "Search", dependencies: ["JSON", "Model", "Markdown", "Support"]),
        // Stage 3 and 4: the site plan (pages and URLs) and rendering.
        .target(name: "Site", dependencies: ["JSON", "Store", "Model", "Markdown", "Mustache", "Search", "Support"]),
        // Stage 5: writing the site: only changed files, atomically, with a manifest and a lock.
        .target(name: "Output", dependencies: ["Support"]),
        // The default theme and the sample store, compiled into the binary from templates/ and
        // content/ by a build-tool plugin (Plugins/EmbedDefaultSite says why a plugin).
        .target(name: "DefaultSite", plugins: ["EmbedDefaultSite"]),
        .plugin(name: "EmbedDefaultSite", capability: .buildTool(), dependencies: ["embed-files"]),
        .executableTarget(name: "embed-files", path: "Plugins/embed-files"),
        // The build as a library: theme, inputs token, plan, parallel render, commit.
        .target(
            name: "Build",
            dependencies: [
                "JSON", "Store", "Firestore", "Model", "Mustache", "Search", "Site", "Output", "DefaultSite", "Media",
                "Support",
            ]),
        // An HTTP server on Debian's libmicrohttpd, live reload: knows no site.
        // libmicrohttpd, libcurl and libcrypto are opened on first use, not at start-up (a build of
        // a folder store calls none of them): their headers here, the functions Roost calls
        // defined in C as calls through dlsym (CSharedLibrary).
        .target(name: "CSharedLibrary", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CMicroHTTPD", dependencies: ["CSharedLibrary"]),
        .target(name: "Preview", dependencies: ["CMicroHTTPD", "Support"]),
        // `roost serve`: stores kept live document by document, served and reloaded.
        .target(
            name: "Live", dependencies: ["Store", "Firestore", "Model", "Site", "Build", "Preview", "Watch", "Support"]),
        // Remote images mirrored into a content-addressed cache: downloads through Debian's libcurl
        // (its multi interface), type by magic bytes, size from the header. Knows no site.
        .target(name: "CCurl", dependencies: ["CSharedLibrary"]),
        .target(name: "Media", dependencies: ["CCurl", "JSON", "Support"]),
        // Stage 1 too: the database itself (Cloud Firestore and its emulator) as a document source,
        // over Debian's libcurl, with OpenSSL's libcrypto signing service-account tokens; and
        // `StoreAddress`, which opens any store as named (a path, an export folder or `firestore://…`).
        .target(name: "CCrypto", dependencies: ["CSharedLibrary"]),
        .target(
            name: "Firestore",
            dependencies: ["CCurl", "CCrypto", "JSON", "Store", "FirestoreExport", "FirestoreListen", "Support"]),
        // `roost generate`: synthetic stores of any size, deterministic from a seed.
        .target(name: "Synthetic", dependencies: ["Support"]),
        // The command line: options, console output, exit statuses.
        .executableTarget(
            name: "roost",
            dependencies: [
                "JSON", "Store", "Firestore", "Model", "Site", "Build", "Live", "Preview", "Synthetic", "DefaultSite",
                "Support",
            ]),

        // Fixtures shared by the test targets (the theme, document builders).
        .target(
            name: "TestSupport", dependencies: ["JSON", "Store", "Model", "Mustache", "Site"], path: "Tests/TestSupport"
        ),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "SharedLibraryTests", dependencies: ["CSharedLibrary"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "ProtobufTests", dependencies: ["Protobuf"]),
        .testTarget(
            name: "FirestoreExportTests",
            dependencies: [
                "FirestoreExport", "Firestore", "Protobuf", "Store", "Build", "Site", "Synthetic", "Support",
                "TestSupport",
            ],
            exclude: ["Fixtures"]),
        .testTarget(name: "FirestoreListenTests", dependencies: ["FirestoreListen", "JSON", "Protobuf", "Store"]),
        .testTarget(
            name: "FirestoreTests",
            dependencies: ["Firestore", "FirestoreListen", "Protobuf", "Store", "Model", "JSON", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "JSON", "TestSupport"]),
        .testTarget(name: "ModelTests", dependencies: ["Model", "Store", "JSON", "Support", "TestSupport"]),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache", "TestSupport"]),
        .testTarget(name: "SearchTests", dependencies: ["Search", "Model", "Store", "TestSupport"]),
        .testTarget(name: "SiteTests", dependencies: ["Site", "Model", "Store", "TestSupport"]),
        .testTarget(name: "OutputTests", dependencies: ["Output", "TestSupport"]),
        .testTarget(
            name: "BuildTests",
            dependencies: [
                "Build", "Site", "Model", "Output", "DefaultSite", "Media", "Live", "Support", "Synthetic",
                "TestSupport",
            ]),
        .testTarget(name: "PreviewTests", dependencies: ["Preview", "TestSupport"]),
        .testTarget(name: "WatchTests", dependencies: ["Watch", "TestSupport"]),
        .testTarget(
            name: "LiveTests", dependencies: ["Live", "Preview", "Watch", "Site", "Model", "Store", "TestSupport"]),
        .testTarget(
            name: "MediaTests", dependencies: ["Media", "Support", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "SyntheticTests", dependencies: ["Synthetic", "Store", "Model", "TestSupport"]),
        .testTarget(
            name: "RoostTests",
            dependencies: ["roost", "JSON", "Store", "Firestore", "DefaultSite", "Preview", "TestSupport"]),
        .testTarget(
            name: "HostileTests", dependencies: ["Store", "Model", "Site", "Mustache", "Output", "TestSupport"]),
    ]
)
