import DocumentCore

extension JWSModel: KindModel {}

extension Document {
    /// The StoreKit 2 model (every token with its layers and, when validated, its verification
    /// report) when the input is a JWS or a JSON body carrying tokens; nil otherwise.
    public var jws: JWSModel? {
        get { model as? JWSModel }
        set { model = newValue }
    }

    init(source: DocumentSource, kind: DocumentKind, layers: [ByteLayer], jws: JWSModel?) {
        self.init(source: source, kind: kind, layers: layers, model: jws)
    }
}
