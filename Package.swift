// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "weatherbot",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "weatherbot", targets: ["weatherbot"]),
        .executable(name: "weatherbot-bench", targets: ["weatherbot-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // Time: the wall clock every part reads, a manual one for simulated days, and Duration in
        // Foundation's seconds. Below every other module.
        .target(name: "BotClock"),
        // The one-method HTTP transport both API clients share, its implementation on SwiftNIO
        // (TLS, HTTP and SOCKS5 proxies), the event loop the bot runs on, and the redaction of secrets.
        .target(
            name: "HTTPTransport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "NIOSOCKS", package: "swift-nio-extras"),
            ]
        ),
        // Bot API types and a client over the transport; photos are uploaded as multipart/form-data.
        .target(
            name: "TelegramBotAPI",
            dependencies: [
                "HTTPTransport",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Geocoding and weather from OpenWeather.
        .target(name: "OpenWeather", dependencies: ["BotClock", "HTTPTransport"]),
        // The second source: Open-Meteo's forecast, place search, air and pollen, read into
        // OpenWeather's models; and Nominatim for the place at a point, one request a second.
        .target(name: "OpenMeteo", dependencies: ["BotClock", "HTTPTransport", "OpenWeather"]),
        // Cairo, found with pkg-config, for drawing the charts.
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        // The 48-hour and week charts: their geometry from a forecast, drawn with Cairo into PNGs.
        .target(name: "WeatherChart", dependencies: ["CCairo", "OpenWeather"]),
        // What the bot stores, whichever engine keeps it: the records (chats, favorites, daily
        // forecasts, inbox, outbox, facts), the BotStore protocol every engine conforms to, and the
        // rules both engines apply. Plain types: no database is imported.
        .target(
            name: "WeatherBotStore",
            dependencies: [
                "BotClock",
                "TelegramBotAPI",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The store written once for every engine: its statements and what each write does over a
        // small seam (a dialect, bound values, rows read by position; each engine runs them on its
        // connections), and the group commit both engines share transactions through.
        .target(
            name: "WeatherBotStoreSQL",
            dependencies: [
                "WeatherBotStore",
                "TelegramBotAPI",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The embedded engine: the store in a SQLite file on GRDB, its migrations and queries.
        .target(
            name: "WeatherBotSQLite",
            dependencies: [
                "BotClock",
                "WeatherBotStore",
                "WeatherBotStoreSQL",
                "TelegramBotAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The same store on PostgreSQL, for replicas that share one database.
        .target(
            name: "WeatherBotPostgres",
            dependencies: [
                "WeatherBotStore",
                "WeatherBotStoreSQL",
                "TelegramBotAPI",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The product's pure core: intents, the conversation, views, texts. It does no I/O: the
        // runtime hands it a geocoder, a weather source, a store and the chat's membership.
        .target(
            name: "WeatherBot",
            dependencies: ["BotClock", "TelegramBotAPI", "OpenWeather", "WeatherBotStore"]
        ),
        // The runtime: poller, per-chat workers, outbox sender, scheduler, and what the core reads
        // through its protocols (OpenWeather, the database, group administrators).
        .target(
            name: "WeatherBotService",
            dependencies: [
                "BotClock",
                "WeatherBot",
                "WeatherBotStore",
                "TelegramBotAPI",
                "OpenWeather",
                "OpenMeteo",
                "HTTPTransport",
                "WeatherChart",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The operators' HTTP endpoints on Hummingbird: health and Prometheus metrics; and the check
        // of the initData Telegram hands the Mini App, signed with the bot's token.
        .target(
            name: "WeatherBotHTTP",
            dependencies: [
                "BotClock",
                "WeatherBot",
                "WeatherBotService",
                "WeatherBotStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The executable: command line, configuration, wiring, lifecycle.
        .executableTarget(
            name: "weatherbot",
            dependencies: [
                "BotClock",
                "WeatherBotService",
                "WeatherBotSQLite",
                "WeatherBotPostgres",
                "WeatherBotHTTP",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                "WeatherBot",
                "WeatherBotStore",
                "TelegramBotAPI",
                "OpenWeather",
                "OpenMeteo",
                "HTTPTransport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The benchmark: the real worker against in-process loopback fakes, figures against targets.
        .executableTarget(
            name: "weatherbot-bench",
            dependencies: [
                "WeatherBotSQLite",
                "BotClock",
                "HTTPTransport",
                "OpenWeather",
                "WeatherChart",
                "WeatherBotPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                "WeatherBot",
                "WeatherBotStore",
                "WeatherBotTesting",
                "WeatherBotHTTP",
                "TelegramBotAPI",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // One set of fakes for the tests and the benchmark, never for the bot: Telegram's Bot API and
        // OpenWeather on a loopback HTTP(S) server of SwiftNIO, HTTP and SOCKS5 proxies, uploaded
        // forms, captured log lines, and a headless Chromium for the Mini App's pages; Open-Meteo and
        // Nominatim too.
        .target(
            name: "WeatherBotTesting",
            dependencies: [
                "BotClock",
                "HTTPTransport",
                "OpenWeather",
                "TelegramBotAPI",
                "WeatherBotPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "weatherbotTests",
            dependencies: [
                "weatherbot", "WeatherBotService", "WeatherBotStore", "HTTPTransport", "OpenWeather", "WeatherBotPostgres", "WeatherBotTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "BotClockTests", dependencies: ["BotClock"]),
        .testTarget(name: "WeatherChartTests", dependencies: ["WeatherChart", "CCairo", "OpenWeather"]),
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: ["HTTPTransport", "WeatherBotTesting", .product(name: "NIOSSL", package: "swift-nio-ssl")]
        ),
        .testTarget(
            name: "TelegramBotAPITests",
            dependencies: [
                "TelegramBotAPI", "HTTPTransport", "WeatherBotTesting",
            ]
        ),
        .testTarget(
            name: "OpenWeatherTests",
            dependencies: ["OpenWeather", "BotClock", "HTTPTransport", "WeatherBotTesting"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "OpenMeteoTests",
            dependencies: ["OpenMeteo", "OpenWeather", "HTTPTransport", "WeatherBotTesting"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "WeatherBotPostgresTests",
            dependencies: [
                "WeatherBotPostgres", "WeatherBotStore", "WeatherBotSQLite", "WeatherBotStoreSQL", "TelegramBotAPI", "WeatherBotTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "WeatherBotSQLiteTests",
            dependencies: [
                "BotClock", "WeatherBotSQLite", "WeatherBotStore", "WeatherBotStoreSQL", "TelegramBotAPI", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "WeatherBotStoreTests", dependencies: ["WeatherBotStore"]),
        .testTarget(
            name: "WeatherBotHTTPTests",
            dependencies: ["WeatherBotHTTP", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "WeatherBotStoreSQLTests",
            dependencies: [
                "WeatherBotStoreSQL",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "WeatherBotTests",
            dependencies: ["WeatherBot", "WeatherBotService", "WeatherBotStore", "WeatherBotSQLite", "TelegramBotAPI", "OpenWeather", "BotClock"],
            // Read and rewritten in place by the golden-screen tests.
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "WeatherBotServiceTests",
            dependencies: [
                "BotClock",
                "WeatherBotService", "WeatherBot", "WeatherBotStore", "TelegramBotAPI", "OpenWeather", "OpenMeteo", "HTTPTransport",
                "WeatherBotTesting", "WeatherChart", "WeatherBotSQLite", "WeatherBotPostgres", "WeatherBotHTTP", "WeatherBotStoreSQL",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// What a module shows of another is said at its import (`public import` only where a public
// signature needs it), each file imports the modules whose members it uses, and existentials say
// `any`. .ci/check-imports keeps Package.swift's dependencies in step with the imports.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("ExistentialAny"),
    ]
}
