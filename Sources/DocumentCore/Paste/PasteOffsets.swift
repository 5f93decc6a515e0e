import ASN1Lenient
import ByteText
import TextLoader

extension PasteOrigin {
    /// The origin's steps as offset maps, from the file layer outwards: copied characters as
    /// segments, decoded base64 as a character map (the same maps every other layer uses).
    public var offsetMaps: [OffsetMap] {
        steps.map { step in
            switch step.kind {
            case .base64: return .base64Characters(step.parentOffsets)
            case .copied: return .segments(Self.segments(step.parentOffsets))
            }
        }
    }

    /// Consecutive offsets merged into runs.
    static func segments(_ offsets: OffsetList) -> [OffsetMap.Segment] {
        offsets.runs.map { OffsetMap.Segment(layerOffset: $0.start, parentOffset: $0.origin, length: $0.length) }
    }
}

extension Document {
    /// A range of `layer` in the pasted text the data was found in: through every enclosing layer
    /// to the file layer, then through the paste's own layers. The file range itself for a clean input.
    public func pastedRange(_ range: Range<Int>, in layer: LayerID) -> Range<Int> {
        var r = fileRange(range, in: layer)
        for map in source.origin?.offsetMaps ?? [] { r = map.parentRange(r) }
        return r
    }
}

extension PasteOrigin {
    /// `input.found` in the JSON outputs: where the data was found, the pasted text's size, how
    /// many base64 layers were decoded on the way, and the other candidates.
    public var jsonObject: [String: Any] {
        ["location": location, "pasted_size": textCount,
         "base64_layers": steps.filter { $0.kind == .base64 }.count, "others": others]
    }
}

extension Document {
    /// Where a range of `layer` sits in the input, in the user's words, when the data was found in
    /// a paste ("characters 62-5383 of line 4 of app.log"); nil for a clean input, whose file
    /// offsets are the input's own.
    public func pastedWords(_ range: Range<Int>, in layer: LayerID) -> String? {
        guard let origin = source.origin else { return nil }
        return origin.words(pastedRange(range, in: layer), place: source.place)
    }
}
