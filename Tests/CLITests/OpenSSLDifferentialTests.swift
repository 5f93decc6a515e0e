import Foundation
import Testing
import TestSupport

/// `dump --format openssl` against the real `openssl asn1parse -inform DER -i` on every corpus
/// receipt and every committed well-formed sample.
@Suite struct OpenSSLDifferentialTests {
    /// One listing line split into the columns that must be identical and the value column.
    struct Line: Equatable, CustomStringConvertible {
        var offset: Int, depth: Int, headerLength: Int, length: String, form: String, tag: String
        var value: String
        var description: String { "\(offset):d=\(depth) hl=\(headerLength) l=\(length) \(form) \(tag) \(value)" }

        /// Same offset, depth, hl, l, prim/cons and tag.
        func sameColumns(_ other: Line) -> Bool {
            (offset, depth, headerLength, length, form, tag) == (other.offset, other.depth, other.headerLength, other.length, other.form, other.tag)
        }
    }

    /// Parses `%5d:d=%-2d hl=%d l=%4d prim: <depth spaces><tag padded to 18><value>`.
    static func parse(_ text: String) -> [Line]? {
        var lines: [Line] = []
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let s = String(raw)
            guard let colon = s.firstIndex(of: ":"), let offset = Int(s[..<colon].trimmingCharacters(in: .whitespaces)) else { return nil }
            let rest = s[s.index(after: colon)...]
            guard rest.hasPrefix("d="), let formRange = rest.range(of: "prim: ") ?? rest.range(of: "cons: ") else { return nil }
            let fields = rest[..<formRange.lowerBound].split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let depth = Int(fields[0].dropFirst(2)), let hl = Int(fields[1].dropFirst(3)) else { return nil }
            var length = String(fields[2].dropFirst(2))
            if length.isEmpty, fields.count >= 4 { length = String(fields[3]) }
            let afterForm = rest[formRange.upperBound...]
            let body = afterForm.dropFirst(depth)
            let tagField = body.prefix(18)
            let value = String(body.dropFirst(18))
            lines.append(Line(offset: offset, depth: depth, headerLength: hl, length: length,
                              form: String(rest[formRange]).trimmingCharacters(in: .whitespaces),
                              tag: tagField.trimmingCharacters(in: .whitespaces), value: value))
        }
        return lines
    }

    static var inputs: [URL] { corpusReceipts() + sampleReceipts(includingMalformed: false) }

    static let openssl = OpenSSLTool.path

    @Test(.enabled(if: openssl != nil, Comment(rawValue: OpenSSLTool.missingReason)), arguments: inputs)
    func columnsMatchOpenSSL(_ url: URL) throws {
        let openssl = try #require(Self.openssl)
        let reference = try runTool(openssl, ["asn1parse", "-inform", "DER", "-i", "-in", url.path])
        try #require(reference.status == 0, "openssl asn1parse failed on \(url.lastPathComponent)")
        let ours = try runCLI(["dump", "--format", "openssl", url.path])
        let theirs = try #require(Self.parse(reference.output), "unparseable openssl output")
        let mine = try #require(Self.parse(ours.stdout), "unparseable dump --format openssl output:\n\(ours.stdout.prefix(500))")
        #expect(mine.count == theirs.count, "\(url.lastPathComponent): \(mine.count) lines vs openssl's \(theirs.count)")
        #expect(theirs.count > 50, "\(url.lastPathComponent): suspiciously short listing")
        for (a, b) in zip(mine, theirs) where !a.sameColumns(b) {
            Issue.record("\(url.lastPathComponent): first difference\n  ours:    \(a)\n  openssl: \(b)")
            break
        }
    }

    /// On real receipts the value column matches too (names, integers, strings, hex dumps).
    @Test(.enabled(if: openssl != nil, Comment(rawValue: OpenSSLTool.missingReason)), arguments: corpusReceipts())
    func valuesMatchOpenSSLOnRealReceipts(_ url: URL) throws {
        let openssl = try #require(Self.openssl)
        let reference = try runTool(openssl, ["asn1parse", "-inform", "DER", "-i", "-in", url.path])
        let ours = try runCLI(["dump", "--format", "openssl", url.path])
        #expect(ours.stdout == reference.output, "\(url.lastPathComponent): byte-for-byte difference")
    }

    /// The BER Xcode receipts exercise `l=inf` and EOC lines; make sure they are really there.
    @Test(.enabled(if: inputs.contains { $0.lastPathComponent.hasPrefix("xcode") }))
    func indefiniteLengthsAndEOCLinesAppear() throws {
        let file = try #require(Self.inputs.first { $0.lastPathComponent.hasPrefix("xcode") })
        let ours = try runCLI(["dump", "--format", "openssl", file.path])
        let lines = try #require(Self.parse(ours.stdout))
        #expect(lines.contains { $0.length == "inf" && $0.form == "cons:" })
        #expect(lines.contains { $0.tag == "EOC" && $0.length == "0" && $0.headerLength == 2 })
        #expect(ours.status == 0)
    }
}
