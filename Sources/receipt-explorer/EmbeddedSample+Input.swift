import DocumentCore

extension EmbeddedSample {
    /// The sample as an input of the one way in (what `explore` and `tour` open without a FILE).
    static var input: DocumentInput {
        .bytes(bytes, place: .builtIn("embedded sample: \(name)"), about: "the sample receipt built into the tool, signed by the TEST root")
    }
}
