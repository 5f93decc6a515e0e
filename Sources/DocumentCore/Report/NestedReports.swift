/// A report's nested reports (a notification's tokens, a history's transactions). Made with the
/// report, or, for a body of many tokens, each made when it is read: a 50 MB history's full
/// reports (steps, ranges, certificates: 6 KB a token) held 60 MB at once, and the writers read
/// each once. Either way a reader gets the same reports.
public struct NestedReports: RandomAccessCollection, Sendable {
    private enum Storage: Sendable {
        case made([VerificationReport])
        case onRead(count: Int, make: @Sendable (Int) -> VerificationReport)
    }

    private let storage: Storage

    public init(_ reports: [VerificationReport]) { storage = .made(reports) }

    /// `count` reports, report `i` made by `make(i)` each time it is read.
    public init(count: Int, onRead make: @escaping @Sendable (Int) -> VerificationReport) {
        storage = .onRead(count: count, make: make)
    }

    /// Whether each report is made when it is read.
    public var isMadeOnRead: Bool {
        if case .onRead = storage { return true }
        return false
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case .made(let reports): reports.count
        case .onRead(let count, _): count
        }
    }

    public subscript(position: Int) -> VerificationReport {
        switch storage {
        case .made(let reports):
            return reports[position]
        case .onRead(let count, let make):
            precondition(position >= 0 && position < count, "NestedReports index out of range")
            return make(position)
        }
    }

    /// Each report passed through `change`: now, or as it is read.
    public func changed(_ change: @escaping @Sendable (inout VerificationReport) -> Void) -> NestedReports {
        switch storage {
        case .made(var reports):
            for i in reports.indices { change(&reports[i]) }
            return NestedReports(reports)
        case .onRead(let count, let make):
            return NestedReports(count: count) { i in
                var report = make(i)
                change(&report)
                return report
            }
        }
    }
}

extension NestedReports: Equatable {
    public static func == (a: NestedReports, b: NestedReports) -> Bool { a.elementsEqual(b) }
}

extension NestedReports: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: VerificationReport...) { self.init(elements) }
}
