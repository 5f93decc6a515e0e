import DocumentCore
import DocumentTour

/// The tour as the explorer runs it: the steps, where the learner is, whether the tour has the
/// keys, and the reply to the last self-check answer.
public struct TourState: Sendable {
    public var tour: Tour
    public var index = 0
    /// False after q / Esc: the learner browses freely; `t` resumes at `index`.
    public var active = true
    public var reply: String?

    public var step: TourStep? { tour.steps.indices.contains(index) ? tour.steps[index] : nil }
}

/// The teaching features' state: the tour and the tamper lab's edit session (both read the
/// state's one `document`: the tour is computed from it, the lab re-opens it).
public struct TeachingState: Sendable {
    public var tour: TourState?
    public var lab: LabSession?
    /// How many of the lab's byte edits each key press made, so `u` undoes a key press (a decoded
    /// byte re-encoded into its base64 characters is several byte edits).
    var labEdits: [Int] = []
    /// The lab's bytes as last written by `w`: quitting asks first only while they differ.
    var savedBytes: [UInt8]?
    /// The lab request whose result (`Message.labReopened`) has not come back yet.
    var pending: PendingLab?
    /// The id the next lab request takes.
    var nextJob = 1

    public init() {}

    /// The tour's highlighted bytes in file offsets, while the tour has the keys.
    func tourRange(in document: Document?) -> Range<Int>? {
        guard let tour, tour.active, let step = tour.step, let document else { return nil }
        return document.fileRange(of: step)
    }
}
