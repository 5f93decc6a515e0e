/// The keys that act on the set of open documents: switching between them, comparing them.
extension AppState {
    /// nil when `action` is not one of these keys, else the effect it asks for.
    mutating func performDocuments(_ action: Action) -> Effect?? {
        switch action {
        case .nextDocument: cycleDocument(forward: true)
        case .previousDocument: cycleDocument(forward: false)
        case .showDiff: return .some(openDiff())
        case .showTimeline: openTimeline()
        case .toggleTokenText: status = StatusMessage("b switches the byte pane of a JWS document; this one is ASN.1", isError: true)
        default: return nil
        }
        return .some(nil)
    }
}
