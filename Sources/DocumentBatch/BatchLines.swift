import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import TextLoader
import DocumentCore

/// Splits a byte stream into lines for `--lines`: a line ends at LF, one CR before it is dropped
/// (CRLF files), and a last line without LF still counts; the LF that ends the input does not start
/// another line. Empty lines are lines (each gets a report, so line numbers stay true).
/// Bytes are never interpreted here: NUL, invalid UTF-8 and other junk go to the loader as they are.
public struct BatchLineSplitter: Sendable {
    private var pending: [UInt8] = []
    private var sawCR = false

    public init() {}

    /// Feeds `chunk`; `emit` gets each completed line in order.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: ([UInt8]) throws -> Void) rethrows {
        var start = 0
        let count = chunk.count
        while start < count {
            // memchr: the line scan is the reader's whole cost on long lines.
            guard let hit = memchr(chunk.baseAddress! + start, 0x0A, count - start) else {
                pending.append(contentsOf: chunk[start..<count])
                return
            }
            let end = UnsafeRawPointer(hit) - chunk.baseAddress!
            let line: [UInt8]
            if pending.isEmpty {
                // The whole line is in this chunk: copied once, at its size (appending grew an array
                // from nothing, copying a token's 8 KB about twice over: a third of the reader's time).
                let cr = end > start && chunk[end - 1] == 0x0D ? 1 : 0
                line = [UInt8](UnsafeRawBufferPointer(rebasing: chunk[start..<(end - cr)]))
            } else {
                pending.append(contentsOf: chunk[start..<end])
                if pending.last == 0x0D { pending.removeLast() }
                line = pending
                pending = []
            }
            try emit(line)
            start = end + 1
        }
    }

    public mutating func feed(_ bytes: [UInt8], emit: ([UInt8]) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { try feed($0, emit: emit) }
    }

    /// The last line when the input did not end with LF.
    public mutating func finish(emit: ([UInt8]) throws -> Void) rethrows {
        guard !pending.isEmpty else { return }
        if pending.last == 0x0D { pending.removeLast() }
        let line = pending
        pending = []
        try emit(line)
    }
}

/// Reads lines from a file descriptor in 1 MiB chunks: memory is the longest line plus one chunk,
/// however long the file.
public struct BatchLineReader {
    private let read: (UnsafeMutableRawBufferPointer) throws -> Int
    private var splitter = BatchLineSplitter()
    private var ready: [[UInt8]] = []
    private var readyIndex = 0
    private var ended = false
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)

    /// `read` fills the buffer and returns the count, 0 at the end; it throws on an I/O error.
    public init(read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.read = read
    }

    /// Reads `fd` (not closed here); EINTR is retried.
    public init(fd: Int32, name: String) {
        self.init { buffer in
            while true {
                let n = readBytes(fd, buffer.baseAddress, buffer.count)
                if n >= 0 { return n }
                if errno == EINTR { continue }
                throw InputError("cannot read \(InputError.quoted(name)): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The next line, nil at the end.
    public mutating func next() throws -> [UInt8]? {
        while readyIndex == ready.count {
            if ended { return nil }
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            let n = try buffer.withUnsafeMutableBytes { try read($0) }
            if n == 0 {
                ended = true
                splitter.finish { ready.append($0) }
            } else {
                buffer.withUnsafeBytes { all in
                    splitter.feed(UnsafeRawBufferPointer(rebasing: all[0..<n])) { ready.append($0) }
                }
            }
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }
}

/// libc's read(2), named apart from the methods called `read` in scope above.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }
