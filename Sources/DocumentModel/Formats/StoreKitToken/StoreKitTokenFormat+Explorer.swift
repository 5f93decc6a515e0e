extension StoreKitTokenFormat {
    /// A token (and the tokens nested in it) is shown as the layer outline.
    public func explorerViews(of document: Document) -> ExplorerViews {
        guard let model = document.jws, !model.tokens.isEmpty || model.body != nil else { return [] }
        return .layerOutline
    }
}
