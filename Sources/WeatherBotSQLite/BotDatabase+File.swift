import Foundation
import Glibc
public import ServiceLifecycle
import WeatherBotStore

extension BotDatabase {
    /// What a path names on disk: its device and inode. Another file put at the path (a restore,
    /// a rename over it) or none at all reads different.
    struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// The database's file was deleted, or another file put at its path, while the bot ran: what
    /// it wrote from then on would reach no file the next start opens.
    public struct FileReplaced: Error, Equatable, CustomStringConvertible {
        /// The path the database was opened from.
        public var path: String
        /// Nothing is at the path any more.
        public var deleted: Bool

        /// One line for the operator: whether the file went or was replaced, and what that means for what was written.
        public var description: String {
            deleted
                ? "the database file \(path) was deleted while the bot ran; restore it (chats' data written since is in the deleted file only while this process has it open)"
                : "the database file \(path) was replaced by another file while the bot ran; the bot opened the former one and stops rather than write to a file no one will read"
        }
    }

    /// Checks every `interval` that the file at the database's path is still the one opened, and
    /// keeps the status report beside a file this connection holds; throws ``FileReplaced`` when
    /// the file is not the one opened. Returns at once for a database not opened from a path.
    public func watchFile(every interval: Duration = .seconds(10)) async throws {
        guard let path = file?.path, let opened = file?.identity else { return }
        if holdsTheFile { writeReport(beside: path) }
        while true {
            try await Task.sleep(for: interval)
            let now = FileIdentity(path: path)
            if now != opened { throw FileReplaced(path: path, deleted: now == nil) }
            if holdsTheFile { writeReport(beside: path) }
        }
    }

    /// Writes the status, as `weatherbot status` reads it, to the report beside the file: the
    /// file itself is this process's alone while it runs. Written whole and then renamed, so a
    /// reader never sees half of one; a failure to write it is only a stale report.
    func writeReport(beside path: String, at now: Date = Date()) {
        guard var status = try? reading({ db in try BotStatus.read(db, checkingFile: false) }) else { return }
        status.reportedAt = now
        let target = BotStatus.reportPath(for: path)
        let written = target + ".new"
        guard let data = try? JSONEncoder().encode(status), FileManager.default.createFile(atPath: written, contents: data, attributes: [.posixPermissions: 0o600])
        else { return }
        _ = rename(written, target)
    }

    /// The group commit's loop and the watch on the file, for the service group that uses this
    /// database, ahead of the services that write; the watch ends with a graceful stop, and its
    /// failure stops the group.
    public func service(checkingFileEvery interval: Duration = .seconds(10)) -> any Service {
        Running(database: self, interval: interval)
    }

    private struct Running: Service {
        let database: BotDatabase
        let interval: Duration

        func run() async throws {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await database.commits.run() }
                group.addTask {
                    do {
                        try await cancelWhenGracefulShutdown { try await database.watchFile(every: interval) }
                    } catch is CancellationError {}
                }
            }
        }
    }
}
