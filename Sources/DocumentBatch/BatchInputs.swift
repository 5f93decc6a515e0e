import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import TextLoader
import DocumentCore

/// The inputs of a batch run, in order: each FILE operand, or with `lines` each line of each FILE
/// ("-" is standard input). Plain values: the producer thread builds its readers from them, so no
/// reader state is ever shared between threads.
public struct BatchInputs: Sendable {
    public var paths: [String]
    public var lines: Bool

    public init(paths: [String], lines: Bool) {
        self.paths = paths
        self.lines = lines
    }

    /// How many inputs there are, when known before reading (FILE operands; not lines).
    public var knownTotal: Int? { lines ? nil : paths.count }

    /// Hands every input to `submit` in order, numbered from 0. A FILE that cannot be opened or
    /// read part-way becomes one `.unreadable` item (after the lines read before the error).
    public func produce(_ submit: (BatchItem) -> Void) {
        var sequence = 0
        func emit(_ source: BatchSource, _ payload: BatchItem.Payload) {
            submit(BatchItem(sequence: sequence, source: source, payload: payload))
            sequence += 1
        }
        for path in paths {
            guard lines else {
                emit(BatchSource(file: path), .path(path))
                continue
            }
            let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
            guard fd >= 0 else {
                emit(BatchSource(file: path), .unreadable("cannot read \(InputError.quoted(path)): \(String(cString: strerror(errno)))"))
                continue
            }
            defer { if fd != 0 { close(fd) } }
            var info = stat()
            if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                emit(BatchSource(file: path), .unreadable("cannot read \(InputError.quoted(path)): it is a directory"))
                continue
            }
            var reader = BatchLineReader(fd: fd, name: path == "-" ? "stdin" : path)
            var number = 0
            do {
                while let line = try reader.next() {
                    number += 1
                    emit(BatchSource(file: path, line: number), .line(line))
                }
            } catch {
                let message = (error as? InputError)?.message ?? "\(error)"
                emit(BatchSource(file: path, line: number + 1), .unreadable(message))
            }
        }
    }
}
