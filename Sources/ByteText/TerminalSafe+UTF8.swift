extension TerminalSafe {
    /// `appendEscaped` as a string: bytes that should be UTF-8 (a UTF8String's content), valid
    /// sequences escaped as `escape` does, each byte of an invalid one as `\xNN`.
    public static func escape(utf8 bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        appendEscaped(Array(bytes), to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
