extension StoreKitJSONFormat {
    /// A JSON body is shown as the layer outline: its members, with the tokens it carries under them.
    public func explorerViews(of document: Document) -> ExplorerViews {
        guard let model = document.jws, !model.tokens.isEmpty || model.body != nil else { return [] }
        return .layerOutline
    }
}
