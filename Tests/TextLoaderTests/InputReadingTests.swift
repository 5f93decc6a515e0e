import Foundation
import Testing
@testable import TextLoader

/// Reading an input's bytes: a regular file in one read of its size, anything else (stdin, a pipe)
/// in 64 KiB reads, every byte kept in order and the size limit applied while reading.
@Suite struct InputReadingTests {
    /// Bytes no two reads of the same length could swap unnoticed.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251) } }

    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("input-reading-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    /// Sizes around the 64 KiB read: empty, one byte, exactly one read, one over, and several reads.
    static let sizes = [0, 1, 65_535, 65_536, 65_537, 200_003]

    @Test(arguments: sizes) func regularFileIsReadWhole(size: Int) throws {
        let bytes = Self.pattern(size)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try InputLoader.readFile(url.path) == bytes)
    }

    @Test(arguments: sizes) func descriptorIsReadToItsEnd(size: Int) throws {
        let bytes = Self.pattern(size)
        let url = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(try InputLoader.readAll(fd: fd, display: "stdin") == bytes)
    }

    /// A pipe hands the bytes over in pieces of the writer's choosing; they are joined in order.
    @Test func pipeIsJoinedInOrder() throws {
        let bytes = Self.pattern(150_001)
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let writeEnd = ends[1]
        let writer = Thread {
            var offset = 0
            var piece = 1
            while offset < bytes.count {
                let count = min(piece, bytes.count - offset)
                let written = bytes[offset..<offset + count].withUnsafeBytes { write(writeEnd, $0.baseAddress, count) }
                if written <= 0 { break }
                offset += written
                piece = piece * 3 + 7 // 1, 10, 37, … 70,000 bytes: pieces below and above a read
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(ends[0]) }
        #expect(try InputLoader.readAll(fd: ends[0], display: "stdin") == bytes)
    }

    /// Standard input over the limit is refused while it is read (in 64 KiB reads), with its size so
    /// far: the 16th read passes 1,000,000 bytes.
    @Test func standardInputOverTheLimitIsRefused() throws {
        let url = try Self.temporaryFile([UInt8](repeating: 0x41, count: 2_621_440))
        defer { try? FileManager.default.removeItem(at: url) }
        let fd = open(url.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: InputError("cannot read stdin: it is 1,048,576 bytes or more, over the input limit of 512 MiB (536,870,912 bytes); read a large log line by line with --lines, or cut out the part that holds the data")) {
            _ = try InputLoader.readAll(fd: fd, display: "stdin", limit: 1_000_000)
        }
    }
}
