// swift-tools-version:6.1
// sleepsta: overnight motion recordings -> sleep analysis (Ingest -> Core -> Store -> Report).
import Foundation
import PackageDescription

// The tests' own code is compiled without optimisation, also under `-c release`: the work they check
// runs in the optimised library modules, and their compile time would otherwise double the suite's.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

// The modules that only compose, lay out and parse options (SleepReport, SleepPipeline, the CLI)
// are compiled without optimisation, also under `-c release`: the per-sample and per-epoch loops
// run in SleepCore, SleepIngest and SleepStore, which stay optimised, so end-to-end runs take the
// same time either way while a fresh build is markedly shorter (measured: docs/performance.md).
let composingSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

// The benchmark (`sleepsta-bench`: `make bench`, `make fuzz`, `make validate-ggir`, `make
// test-slurm`) is part of the package only when SLEEPSTA_BENCH is set, as those targets set it:
// `swift test` builds every executable of the package, and the bench would add half a minute to
// each `make test` that no test uses.
let withBench = ProcessInfo.processInfo.environment["SLEEPSTA_BENCH"].map { !$0.isEmpty && $0 != "0" } ?? false

let package = Package(
    name: "sleepsta",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "sleepsta", targets: ["sleepsta"]),
        .library(name: "SleepCore", targets: ["SleepCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // libgd from Debian (pkg-config name "gdlib"; see shim.h for the macros Swift cannot import).
        // libgd-dev (installed by `make deps`): gd.h in /usr/include, linked by the module map. Not
        // through pkg-config, whose gdlib flags carry libavif's -DAVIF_DLL, which SwiftPM prohibits
        // and warns about on every build.
        .systemLibrary(name: "CGD"),
        // zlib from Debian: gzip streams (*.csv.gz, *.cwa.gz) and the deflate entries of .gt3x zip archives.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Intel ISA-L igzip from Debian: the fast gzip inflate (about 2.3x zlib here); zlib stays the
        // fallback for whatever it refuses (Streams/IsalGzip.swift).
        .systemLibrary(name: "CIsal", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        // BLAKE3's official C code (vendored: Debian 12 has no package), the content identity of
        // recording files (Sources/CBLAKE3/README.md).
        .target(name: "CBLAKE3", exclude: ["upstream", "README.md"]),
        // OpenSSL's libcrypto from Debian (libssl-dev): SHA-256 for the legacy content hashes, shard
        // folder digests and `sleepsta digest` (Files/SHA256Digest.swift).
        .systemLibrary(name: "CSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The charts' two per-pixel loops (halving the doubled canvas, filling rectangles), in C so
        // that they run optimised while SleepReport, which calls them, is compiled without.
        .target(name: "CPixels"),

        // Pure computation: sample buffers, accumulator, scorers, night metrics. No I/O.
        .target(name: "SleepCore", exclude: ["SleepCore.docc"]),
        // Readers (one per format behind RecordingReader), format detection, QC.
        // BLAKE3 is the content identity of recording files; SHA-256 (libcrypto) recognises
        // recordings stored before it (Files/FileHashing.swift).
        .target(name: "SleepIngest", dependencies: [
            "SleepCore",
            "CZlib", "CIsal", "CBLAKE3", "CSSL",
            // Read-only access to ActiGraph .agd files, which are SQLite databases (input files, not
            // sleepsta's store: see AGDReader; SQL for sleepsta's own data stays in SleepStore):
            // Debian's libsqlite3 through GRDB's module map, so that this module's compile does
            // not wait for GRDB's.
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // SQLite schema, migrations, transactions: the only module that speaks SQL.
        .target(name: "SleepStore", dependencies: ["SleepCore", .product(name: "GRDB", package: "GRDB.swift"),
                                                 .product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // libgd charts and HTML pages: the only module that knows pixels and markup.
        // It reads what the store holds (its value types and SleepDatabase's queries, no SQL of its
        // own): data flows Ingest -> Core -> Store -> Report.
        .target(name: "SleepReport", dependencies: [
            "SleepCore", "SleepStore", "CGD", "CPixels", "CZlib",
            .product(name: "Mustache", package: "swift-mustache"),
        ], swiftSettings: composingSettings),
        // The thin composition Ingest -> Core -> Store -> Report.
        .target(name: "SleepPipeline", dependencies: [
            "SleepCore", "SleepIngest", "SleepStore", "SleepReport",
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: composingSettings),
        // The CLI: parses options, calls the pipeline.
        .executableTarget(name: "sleepsta", dependencies: [
            "SleepPipeline", "SleepCore",
            "SleepReport",   // the epoch commands write their CSV with it; compare prints its Markdown table
            "SleepIngest",   // `sleepsta inspect` describes files straight from the readers
            "SleepStore",    // the "waiting for a busy database" lines go to the run's log
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: composingSettings),
        // The benchmark's deterministic wearable signal (CSV and .cwa) with its scripted nights: the
        // bench times it, the tests check the wearable method against its script.
        .target(name: "SleepstaWorkloads", dependencies: ["SleepCore", "CZlib"], path: "bench/SleepstaWorkloads"),

        .testTarget(name: "SleepCoreTests", dependencies: ["SleepCore", "SleepstaWorkloads"], exclude: ["Fixtures"], swiftSettings: testSettings),
        .testTarget(name: "SleepIngestTests", dependencies: ["SleepIngest", "SleepCore", "CZlib", .product(name: "GRDB", package: "GRDB.swift")], exclude: ["Fixtures"], swiftSettings: testSettings),
        .testTarget(name: "SleepStoreTests", dependencies: ["SleepStore", "SleepCore", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: testSettings),
        .testTarget(name: "SleepReportTests", dependencies: ["SleepReport", "SleepCore", "SleepIngest", "CGD"], swiftSettings: testSettings),
        .testTarget(name: "SleepPipelineTests", dependencies: ["SleepPipeline", "SleepIngest", "SleepStore", "SleepReport", "SleepCore", "SleepstaWorkloads",
                                                      .product(name: "GRDB", package: "GRDB.swift"),
                                                      .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"], swiftSettings: testSettings),
        .testTarget(name: "SleepCompareTests", dependencies: ["SleepPipeline", "SleepReport", "SleepStore", "SleepCore", "CGD",
                                                     .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"], swiftSettings: testSettings),
        // The CLI's own pieces (the terminal's progress line).
        .testTarget(name: "SleepstaCLITests", dependencies: ["sleepsta", "SleepPipeline", "SleepCore"], swiftSettings: testSettings),
    ]
)

if withBench {
    // `make bench`: stage-by-stage benchmark and the Python peers (docs/performance.md). Its
    // sources live under bench/, apart from the product's; no extra dependencies.
    package.products.append(.executable(name: "sleepsta-bench", targets: ["SleepstaBench"]))
    package.targets.append(.executableTarget(name: "SleepstaBench", dependencies: [
        "SleepPipeline", "SleepIngest", "SleepStore", "SleepCore", "SleepstaWorkloads",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
    ], path: "bench/SleepstaBench"))
}
