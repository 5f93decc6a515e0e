/// The keys that act on the set of open documents: switching between them.
extension AppState {
    mutating func performDocuments(_ action: Action) -> Bool {
        switch action {
        case .nextDocument: cycleDocument(forward: true)
        case .previousDocument: cycleDocument(forward: false)
        default: return false
        }
        return true
    }
}
