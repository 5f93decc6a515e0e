/// The keys that act on the set of open documents: switching between them.
extension AppState {
    mutating func performDocuments(_ action: Action) -> Bool {
        switch action {
        case .nextDocument: cycleDocument(forward: true)
        case .previousDocument: cycleDocument(forward: false)
        case .showDiff: openDiff()
        case .showTimeline: openTimeline()
        case .toggleTokenText: status = StatusMessage("b switches the byte pane of a JWS document; this one is ASN.1", isError: true)
        default: return false
        }
        return true
    }
}
