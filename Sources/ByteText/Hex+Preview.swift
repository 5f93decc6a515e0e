extension Hex {
    /// The first `maxBytes` bytes as spaced uppercase hex, with " ..." when there are more: a
    /// value too long to show whole ("30 82 01 0A ...").
    public static func preview(_ bytes: some Collection<UInt8>, maxBytes: Int) -> String {
        string(bytes.prefix(maxBytes), .upper, separator: " ") + (bytes.count > maxBytes ? " ..." : "")
    }
}
