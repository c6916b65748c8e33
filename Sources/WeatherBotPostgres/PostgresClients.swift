public import PostgresNIO

/// Runs `body` while the clients' connection pools run, each in a child task, and stops them
/// after: for the command line's one-off commands (and the tests and the bench). A query asked of a
/// pool whose task has not started yet waits for it. The bot itself runs its pools as services
/// of its group.
public func withRunning<T>(_ clients: [PostgresClient], _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for client in clients { group.addTask { await client.run() } }
        defer { group.cancelAll() }
        return try await body()
    }
}
