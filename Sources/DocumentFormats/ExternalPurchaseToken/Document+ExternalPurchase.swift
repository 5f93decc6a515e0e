import DocumentCore

extension ExternalPurchaseModel: KindModel {}

extension Document {
    /// The decoded token when the input is an external purchase token; nil otherwise.
    public var externalPurchase: ExternalPurchaseModel? {
        get { model as? ExternalPurchaseModel }
        set { model = newValue }
    }
}
