public import Foundation
public import Logging
public import PostgresNIO

/// Which replica on one PostgreSQL database is active: the one holding the lease row. A lease
/// lasts `duration` from its last renewal, on the server's clock (replicas' clocks may differ);
/// the holder renews it well before then. When the holder dies, freezes or loses the network, the
/// lease runs out and a standby takes it, with the next epoch. Writes are fenced by the epoch
/// (``PostgresStore/fence(with:)``), so a former holder that wakes up writes nothing.
public struct LeaderLease: Sendable {
    /// A lease as this replica holds it.
    public struct Held: Sendable, Hashable {
        /// The name it was taken under, as ``replicaName`` gives it: host and process id.
        public var holder: String
        /// Counts the takeovers from 1; writes are fenced by it, so a former holder's epoch is refused.
        public var epoch: Int64
    }

    /// The lease as anyone reads it, for `weatherbot status`.
    public struct Standing: Sendable, Hashable {
        /// Who holds or last held it: host and process id, as ``replicaName`` gives it.
        public var holder: String
        /// The takeovers so far, counted from 1.
        public var epoch: Int64
        /// When the holder took it, on the server's clock; renewals leave it as it is.
        public var acquiredAt: Date
        /// When it runs out unless renewed, on the server's clock; in the past after a release.
        public var expiresAt: Date
        /// Whether it had not run out when read.
        public var isCurrent: Bool

        /// The holder's process id, when it is named as ``replicaName`` names replicas.
        public var processID: Int32? { holder.split(separator: "/").last.flatMap { Int32($0) } }
    }

    /// The name this process holds the lease under: its host and process id.
    public static var replicaName: String {
        "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)"
    }

    let client: PostgresClient
    let logger: Logger
    /// How long a lease lasts after its last renewal.
    public let duration: Duration
    static let name = "bot"

    /// A lease on the `leader_lease` table of `client`'s database (migrated by ``PostgresStore/migrate()``); the client's pool must run.
    /// Replicas take the default six seconds: a holder that stops renewing loses the lease within that long.
    public init(client: PostgresClient, duration: Duration = .seconds(6), logger: Logger) {
        self.client = client
        self.duration = duration
        self.logger = logger
    }

    private var seconds: Double { Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18 }

    /// Takes the lease when nobody holds it or it ran out; nil while another replica holds it.
    public func acquire(as holder: String) async throws -> Held? {
        let rows = try await client.query(
            """
            INSERT INTO leader_lease (name, holder, epoch, acquired_at, expires_at)
            VALUES (\(Self.name), \(holder), 1, now(), now() + make_interval(secs => \(seconds)))
            ON CONFLICT (name) DO UPDATE SET
                holder = EXCLUDED.holder, epoch = leader_lease.epoch + 1, acquired_at = now(), expires_at = EXCLUDED.expires_at
            WHERE leader_lease.expires_at < now()
            RETURNING epoch
            """, logger: logger)
        for try await epoch in rows.decode(Int64.self) { return Held(holder: holder, epoch: epoch) }
        return nil
    }

    /// Extends a lease still held; false when it ran out or another replica took it.
    public func renew(_ lease: Held) async throws -> Bool {
        let rows = try await client.query(
            """
            UPDATE leader_lease SET expires_at = now() + make_interval(secs => \(seconds))
            WHERE name = \(Self.name) AND holder = \(lease.holder) AND epoch = \(lease.epoch) AND expires_at > now()
            RETURNING epoch
            """, logger: logger)
        return try await !rows.collect().isEmpty
    }

    /// Gives the lease up at once (a graceful stop), so that a standby need not wait for it to run out.
    public func release(_ lease: Held) async throws {
        try await client.query(
            """
            UPDATE leader_lease SET expires_at = now() - interval '1 millisecond'
            WHERE name = \(Self.name) AND holder = \(lease.holder) AND epoch = \(lease.epoch)
            """, logger: logger)
    }

    /// The lease as it stands; nil before any replica took it.
    public func standing() async throws -> Standing? {
        let rows = try await client.query(
            "SELECT holder, epoch, acquired_at, expires_at, expires_at > now() FROM leader_lease WHERE name = \(Self.name)", logger: logger)
        for try await row in rows.decode((String, Int64, Date, Date, Bool).self) {
            return Standing(holder: row.0, epoch: row.1, acquiredAt: row.2, expiresAt: row.3, isCurrent: row.4)
        }
        return nil
    }

    /// Inside a write's transaction: the lease is still `lease`, and stays so until the
    /// transaction ends (a takeover waits for the row); throws ``NotLeading`` otherwise.
    static func check(_ lease: Held, _ connection: PostgresConnection, _ logger: Logger) async throws {
        let rows = try await connection.query(
            """
            SELECT epoch FROM leader_lease
            WHERE name = \(name) AND holder = \(lease.holder) AND epoch = \(lease.epoch) AND expires_at > now()
            FOR SHARE
            """, logger: logger)
        guard try await !rows.collect().isEmpty else { throw NotLeading(lease: lease) }
    }
}

/// This replica's lease ran out or another replica took it: what it would write is refused.
public struct NotLeading: Error, Sendable, CustomStringConvertible {
    /// The lease the refused write was made under.
    public var lease: LeaderLease.Held

    /// The refusal of a write made under `lease`.
    public init(lease: LeaderLease.Held) {
        self.lease = lease
    }

    /// One line for the log, naming the holder and epoch that lost the lease.
    public var description: String { "this replica (\(lease.holder), epoch \(lease.epoch)) no longer holds the lease" }
}

extension PostgresQuery.StringInterpolation {
    /// `WITH fence AS (…), allowed AS (…)`: the start of a statement that is its own transaction
    /// and writes only while `lease` holds, as ``LeaderLease/check(_:_:_:)`` checks it in a
    /// transaction (the lease's row locked until the statement ends, so a takeover waits). Each
    /// write of the statement reads `allowed.ok`; nil writes unfenced.
    mutating func appendInterpolation(fenceFor lease: LeaderLease.Held?) {
        appendLiteral("WITH fence AS (SELECT epoch FROM leader_lease WHERE name = ")
        appendInterpolation(LeaderLease.name)
        appendLiteral(" AND holder = ")
        appendInterpolation(lease?.holder ?? "")
        appendLiteral(" AND epoch = ")
        appendInterpolation(lease?.epoch ?? 0)
        appendLiteral(" AND expires_at > now() FOR SHARE), allowed AS (SELECT ")
        appendInterpolation(lease == nil)
        appendLiteral(" OR EXISTS (SELECT 1 FROM fence) AS ok)")
    }
}

