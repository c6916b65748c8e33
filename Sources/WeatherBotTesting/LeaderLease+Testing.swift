public import WeatherBotPostgres

extension LeaderLease {
    /// The process id of the replica holding the lease now, if one does: which replica a test or
    /// the benchmark kills.
    public func activeProcessID() async throws -> Int32? {
        guard let standing = try await standing(), standing.isCurrent else { return nil }
        return standing.processID
    }
}
