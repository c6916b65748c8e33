import Testing

/// Waits, yielding, until `condition` holds; fails the test after thirty seconds, as long as the
/// other suites wait, since a full parallel run on two cores can hold a task up for seconds.
func eventually(_ what: Comment, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("never: \(what)")
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
