import ASN1Lenient
import JWSKit
import ByteText
import DocumentCore

/// Writes stand-ins into a document's layers and carries every change outwards, layer by layer,
/// to the file: a reassembled payload back into its chunks, a token's header or payload back into
/// its base64url segment, a nested token back into its parent's payload. Every stand-in has the
/// length of its value, so every length, offset and segment stays where it was.
///
/// It keeps the document's layers without their trees, and its tokens' segments: all the writes
/// read, so that the document (for a 50 MB history, 50 MiB of trees and decoded fields) can go
/// before the file's copy is made (issue 32).
struct LayerRewrite {
    /// The document's layers a write reaches: bytes, parents, maps and roles; no trees.
    let layers: [ByteLayer]
    /// Their names, for the failures.
    let names: PackedLayerNames
    /// Each layer's new bytes, made on its first write (nil: as in the document). Unwritten token
    /// layers stay windows into their body rather than copies.
    private var edited: [[UInt8]?]
    /// Changed layers already carried into their parents, whose new bytes were let go (a history's
    /// payloads and token texts were all held at once beside the file's copy).
    private var carried: Set<Int> = []
    /// Each token segment's characters by the index of the layer it decodes to: made again for
    /// every layer, a history of 10,000 tokens took 151 s (quadratic).
    private let segmentsByLayer: [Int: Range<Int>]

    struct Failure: Error {
        var message: String
    }

    /// `tokens`: the document's (`RedactionParts.tokens`); `written`: the layers the targets are in.
    init(_ document: Document, tokens: [RedactionParts.RedactedToken], written: Set<Int>) {
        let reached = Self.reached(from: written, in: document)
        layers = Self.skeleton(document, reached: reached)
        names = PackedLayerNames(document, keeping: reached)
        edited = Array(repeating: nil, count: layers.count)
        var table: [Int: Range<Int>] = [:]
        for token in tokens {
            for segment in token.segments where table[segment.layer.index] == nil { table[segment.layer.index] = segment.characters }
        }
        segmentsByLayer = table
    }

    /// The layers a write reaches (those written and their parents, out to the file), without
    /// their trees or names (`names`); every other layer empty. What is kept in small blocks (maps,
    /// small layers' bytes) is copied out of the document: its memory is small blocks, token after
    /// token, and any of them kept would keep the pages around it resident once the document goes
    /// (issue 32). A block of `ownPages` or more (the file, a reassembled payload) has pages of its
    /// own: kept as it is.
    static func skeleton(_ document: Document, reached: Set<Int>) -> [ByteLayer] {
        document.layers.map { layer in
            guard reached.contains(layer.id.index) else {
                return ByteLayer(id: layer.id, role: layer.role, name: "", bytes: [], content: .raw(diagnostics: []))
            }
            let small = layer.bytes.base.count < ownPages
            var map = layer.map
            if case .segments(let segments) = map { map = .segments(segments.map { $0 }) }
            return ByteLayer(id: layer.id, role: layer.role, name: "", window: small ? ByteWindow(layer.bytes.map { $0 }) : layer.bytes,
                             content: .raw(diagnostics: []), parent: layer.parent, map: map)
        }
    }

    /// The size from which glibc gives a block pages of its own (`redact` fixes it there:
    /// `FreedHeap.returnLargeBlocksWhenFreed`).
    static let ownPages = 128 << 10

    /// The layers written and their parents, out to the file (always reached: it is the copy).
    static func reached(from written: Set<Int>, in document: Document) -> Set<Int> {
        var reached: Set<Int> = document.layers.isEmpty ? [] : [0]
        for index in written {
            var next: Int? = index
            while let i = next, reached.insert(i).inserted { next = document.layers[i].parent?.index }
        }
        return reached
    }

    /// A layer's bytes as rewritten so far.
    func bytes(_ index: Int) -> ByteWindow { edited[index].map(ByteWindow.init) ?? layers[index].bytes }

    /// Changes a layer's bytes, copying them out of the document on the first change.
    private mutating func edit<R>(_ index: Int, _ change: (inout [UInt8]) throws -> R) rethrows -> R {
        var new = edited[index] ?? layers[index].bytes.array
        edited[index] = nil  // uniquely referenced while it changes
        defer { edited[index] = new }
        return try change(&new)
    }

    /// Layers whose bytes changed.
    func changed(_ id: LayerID) -> Bool {
        carried.contains(id.index) || edited[id.index].map { ByteWindow($0) != layers[id.index].bytes } ?? false
    }

    mutating func write(_ target: RedactTarget, standIn: RedactedValue) throws {
        let encoded = try Self.encode(target, standIn: standIn, layer: layers[target.layer.index].bytes)
        guard encoded.count == target.range.count else {
            throw Failure(message: "\(target.place): the stand-in takes \(encoded.count) bytes where the value takes \(target.range.count): a bug")
        }
        edit(target.layer.index) { $0.replaceSubrange(target.range, with: encoded) }
    }

    static func encode(_ target: RedactTarget, standIn: RedactedValue, layer: ByteWindow) throws -> [UInt8] {
        let new = standIn.bytes
        switch target.kind {
        case .utf8, .bytes, .jsonNumber:
            return new
        case .derInteger:
            guard case .text(let text) = standIn, let value = UInt64(text) else {
                throw Failure(message: "\(target.place): the stand-in is not a number")
            }
            var octets: [UInt8] = []
            var v = value
            repeat { octets.insert(UInt8(v & 0xFF), at: 0); v >>= 8 } while v > 0
            if octets[0] & 0x80 != 0 { octets.insert(0, at: 0) }
            guard octets.count <= target.range.count else {
                throw Failure(message: "\(target.place): the stand-in needs \(octets.count) octets, the INTEGER has \(target.range.count)")
            }
            // A non-minimal original keeps its leading zero octets (and its finding).
            return [UInt8](repeating: 0, count: target.range.count - octets.count) + octets
        case .jsonString:
            return try jsonString(target, offsets: target.jsonOffsets, new: new, layer: layer)
        }
    }

    /// The string's content with each decoded byte's new value written in the form the original
    /// used: as it is, or as the same escape (`\u0041` stays a `\u` escape). Stand-ins keep every
    /// character that is not a letter or digit, so two-character escapes (`\/`, `\n`) never change.
    /// `offsets` is empty for a string written as itself (one layer byte per decoded byte).
    static func jsonString(_ target: RedactTarget, offsets: [Int], new: [UInt8], layer: ByteWindow) throws -> [UInt8] {
        let old = target.original(in: layer).bytes
        if offsets.isEmpty && target.range.count == old.count && new.count == old.count { return new }
        guard offsets.count == old.count, new.count == old.count else {
            throw Failure(message: "\(target.place): the stand-in's length differs")
        }
        if target.range.count == old.count { return new }  // no escapes
        var out: [UInt8] = []
        var i = 0
        while i < old.count {
            let start = offsets[i]
            var j = i + 1
            while j < old.count && offsets[j] == start { j += 1 }
            let end = j < old.count ? offsets[j] : target.range.upperBound
            let source = Array(layer[start..<end])
            if source.count == j - i || Array(new[i..<j]) == Array(old[i..<j]) {
                out += source.count == j - i ? Array(new[i..<j]) : source
            } else if source.count == 6, j - i == 1, new[i] < 0x80 {
                let upper = source.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
                out += Array("\\u00".utf8)
                Hex.append(new[i], to: &out, upper ? .upper : .lower)
            } else {
                throw Failure(message: "\(target.place): an escape in the string cannot hold the stand-in")
            }
            i = j
        }
        return out
    }

    /// Carries changed layers into their parents, innermost first (a layer's parent always has a
    /// lower index), and returns the file layer's new bytes.
    mutating func propagate() throws -> [UInt8] {
        for index in stride(from: layers.count - 1, through: 1, by: -1) {
            let layer = layers[index]
            guard changed(layer.id), let parent = layer.parent, let map = layer.map else { continue }
            switch map {
            case .segments(let segments):
                let child = bytes(index)
                edit(parent.index) { parentBytes in
                    for s in segments {
                        parentBytes.replaceSubrange(s.parentOffset..<(s.parentOffset + s.length),
                                                    with: child[s.layerOffset..<(s.layerOffset + s.length)])
                    }
                }
            case .base64(let textStart):
                // A token's segment, or base64 text that starts at `textStart` (an external purchase token).
                let parentBytes = bytes(parent.index)
                let characters = (try? segmentCharacters(of: layer.id))
                    ?? textStart..<min(parentBytes.count, textStart + (layer.bytes.count * 8 + 5) / 6)
                let slots = characters.filter { parentBytes[$0] != UInt8(ascii: "=") }
                    .map { Base64Rewrite.Slot(offset: $0, length: 1) }
                try rewriteBase64(layer, parent: parent, slots: slots, alphabet: layer.role.usesStandardBase64 ? .either : .url)
            case .base64Characters(let offsets):
                // Base64 whose characters are spread (an Advanced Commerce request's `request`, an x5c
                // entry with `\/` escapes): each character where the map says.
                let parentBytes = bytes(parent.index)
                let slots = offsets.filter { parentBytes[$0] != UInt8(ascii: "=") }.map { offset in
                    offset + 1 < parentBytes.count && parentBytes[offset] == UInt8(ascii: "\\") && parentBytes[offset + 1] == UInt8(ascii: "/")
                        ? Base64Rewrite.Slot(offset: offset, length: 2) : Base64Rewrite.Slot(offset: offset, length: 1)
                }
                try rewriteBase64(layer, parent: parent, slots: slots, alphabet: .either)
            }
            carried.insert(index)
            edited[index] = nil
        }
        return edited[0] ?? layers[0].bytes.array
    }

    mutating func rewriteBase64(_ layer: ByteLayer, parent: LayerID, slots: [Base64Rewrite.Slot], alphabet: Base64Rewrite.Alphabet) throws {
        do {
            let decoded = bytes(layer.id.index).array
            try edit(parent.index) { $0 = try Base64Rewrite.rewrite($0, slots: slots, bytes: decoded, alphabet: alphabet) }
        } catch let failure as Base64Rewrite.Failure {
            throw Failure(message: "\(TerminalSafe.escape(names[layer.id.index])): \(failure.message)")
        }
    }

    /// The characters of the token segment that `layer` (a header, payload or signature) decodes,
    /// in the token layer's offsets.
    func segmentCharacters(of layer: LayerID) throws -> Range<Int> {
        if let characters = segmentsByLayer[layer.index] { return characters }
        throw Failure(message: "\(TerminalSafe.escape(names[layer.index])): no token segment holds this layer: a bug")
    }
}
