import ASN1Lenient
import DocumentCore
import ExplorerUI
import Foundation
import ReceiptKit
import TextLoader
import Testing
import TestSupport

/// The explorer's tour pane and `tour --print` say the same thing: for every stop, the pane's
/// lines (wide enough not to wrap) are the printed stop's lines up to its question; the printed
/// answer key follows, and the pane shows the picked choice's line of it after an answer.
@Suite struct TourPaneMatchesPrintTests {
    static func compare(_ sample: String, size: GridSize = GridSize(width: 4000, height: 200)) throws {
        let path = Paths.samples.appendingPathComponent(sample).path
        let printed = TourCommandTests.stops(try runCLI(["tour", path, "--print"]).stdout)
        let input = try InputLoader.decode(try Paths.sample(sample), name: (sample as NSString).lastPathComponent)
        var state = AppState(document: Document.open(input, options: AnalysisOptions(validate: false)), screen: size)
        _ = ExplorerUI.reduce(&state, InputEvent.character("t"))
        #expect(printed.count == state.teaching.tour?.tour.steps.count, "\(sample)")
        for (i, stop) in printed.enumerated() {
            let pane = DetailContent.lines(state, width: size.width).map(\.text)
            let question = stop.firstIndex { $0.hasPrefix("  answer: [") } ?? stop.count
            let expected = [stop[0]] + stop[1..<question].map { String($0.dropFirst(2)) }
            #expect(Array(pane.prefix(expected.count)) == expected, "\(sample) stop \(i + 1)")
            #expect(pane.dropFirst(expected.count).first == "n next, p previous, ↑ ↓ scroll, q leaves the tour (t resumes)")
            if question < stop.count, let key = stop[question].dropFirst("  answer: [".count).first {
                // A wrong choice: its printed explanation is the pane's reply.
                let wrong: Character = key == "a" ? "b" : "a"
                var answered = state
                _ = ExplorerUI.reduce(&answered, InputEvent.character(wrong))
                let reply = try #require(stop.first { $0.hasPrefix("  [\(wrong)] ") }).dropFirst("  [x] ".count)
                #expect(DetailContent.lines(answered, width: size.width).map(\.text)[expected.count] == String(reply), "\(sample) stop \(i + 1)")
                #expect(reply.hasPrefix("not quite: "))
            }
            _ = ExplorerUI.reduce(&state, InputEvent.character("n"))
        }
    }

    @Test func receipt() throws { try Self.compare("typical.receipt") }
    @Test func xcodeReceipt() throws { try Self.compare("xcode-ber.receipt") }
    @Test func notificationToken() throws { try Self.compare("jws/notification.jws") }
    @Test func certificate() throws { try Self.compare("pki/test-root.cer") }
}
