import DocumentCore

/// How an encoder writes base64: one alphabet, lines of one length broken the same way, padding
/// or none, nothing else. When the data in an input's text is its bytes written exactly so, `redact`
/// keeps this instead of the data's text and writes the copy's from the new bytes: the text of a
/// 50 MB receipt as base64 (67 MB) was held beside the opened document and beside the copy's check
/// (issue 32). Written in this layout, new bytes of the same count come out as `Base64Rewrite` or
/// `PasteRewrite` would write them into the old text: every character not carrying a changed bit
/// as it was, a changed one in the text's alphabet, the same breaks and padding.
package struct Base64Layout: Equatable {
    /// Characters a line (padding included); 0: one line.
    package var lineLength: Int
    package var lineBreak: [UInt8]
    package var padded: Bool
    /// base64url (`-`, `_`).
    package var url: Bool

    package init(lineLength: Int, lineBreak: [UInt8], padded: Bool, url: Bool) {
        self.lineLength = lineLength
        self.lineBreak = lineBreak
        self.padded = padded
        self.url = url
    }

    /// The layout `text` is `bytes` written in; nil when it is written any other way (whitespace
    /// or escapes inside, mixed alphabets, ragged lines, unused bits set, anything around it).
    package static func of(_ text: ArraySlice<UInt8>, writing bytes: [UInt8]) -> Base64Layout? {
        guard !bytes.isEmpty, !text.isEmpty else { return nil }
        var layout = Base64Layout(lineLength: 0, lineBreak: [0x0A], padded: text.last == UInt8(ascii: "="),
                                  url: text.contains { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        if let newline = text.firstIndex(of: 0x0A) {
            let crlf = newline > text.startIndex && text[newline - 1] == 0x0D
            layout.lineBreak = crlf ? [0x0D, 0x0A] : [0x0A]
            layout.lineLength = newline - text.startIndex - (crlf ? 1 : 0)
            guard layout.lineLength > 0 else { return nil }
        }
        return layout.writes(bytes, as: text) ? layout : nil
    }

    /// The characters `byteCount` bytes take, breaks included.
    package func textCount(byteCount: Int) -> Int {
        let characters = padded ? (byteCount + 2) / 3 * 4 : (byteCount * 8 + 5) / 6
        let breaks = lineLength > 0 && characters > 0 ? (characters - 1) / lineLength : 0
        return characters + breaks * lineBreak.count
    }

    /// `bytes` written in this layout, appended to `out`.
    package func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + textCount(byteCount: bytes.count))
        write(bytes) { piece in
            out.append(contentsOf: piece)
            return true
        }
    }

    /// Whether `text` is exactly `bytes` written in this layout (compared a piece at a time: no
    /// second copy of the text).
    package func writes(_ bytes: [UInt8], as text: ArraySlice<UInt8>) -> Bool {
        guard textCount(byteCount: bytes.count) == text.count else { return false }
        var position = text.startIndex
        return write(bytes) { piece in
            defer { position += piece.count }
            return text[position..<(position + piece.count)].elementsEqual(piece)
        }
    }

    /// Writes `bytes` in pieces of about 64 KB to `sink`, which returns false to stop; true when it
    /// never did.
    @discardableResult
    func write(_ bytes: [UInt8], _ sink: (ArraySlice<UInt8>) -> Bool) -> Bool {
        let alphabet = url ? Base64Groups.urlAlphabet : Base64Groups.standardAlphabet
        var piece: [UInt8] = []
        piece.reserveCapacity(Self.pieceSize + 8)
        var column = 0
        func put(_ c: UInt8) {
            if lineLength > 0 && column == lineLength {
                piece.append(contentsOf: lineBreak)
                column = 0
            }
            piece.append(c)
            column += 1
        }
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i])
            let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            let kept = min(3, bytes.count - i)  // bytes in this group
            put(alphabet[b0 >> 2])
            put(alphabet[(b0 & 0x03) << 4 | b1 >> 4])
            if kept > 1 { put(alphabet[(b1 & 0x0F) << 2 | b2 >> 6]) } else if padded { put(UInt8(ascii: "=")) }
            if kept > 2 { put(alphabet[b2 & 0x3F]) } else if padded { put(UInt8(ascii: "=")) }
            i += 3
            if piece.count >= Self.pieceSize {
                guard sink(piece[...]) else { return false }
                piece.removeAll(keepingCapacity: true)
            }
        }
        return piece.isEmpty || sink(piece[...])
    }

    static let pieceSize = 64 << 10
}
