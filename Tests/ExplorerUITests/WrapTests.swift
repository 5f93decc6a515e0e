import Testing
@testable import ExplorerUI

/// FuzzRender found the word wrap trapping in a 1-column pane; every narrow width must terminate
/// with every line within the width and no text lost.
@Suite struct WrapTests {
    @Test(arguments: 1...6)
    func narrowWidthsWrapEverything(_ width: Int) {
        let text = "signature: passed — the PKCS#7 signature verifies over the payload"
        let lines = DetailContent.wrap(text, width: width, style: .plain, indent: 17)
        #expect(lines.allSatisfy { $0.text.unicodeScalars.count <= width })
        let kept = lines.map { $0.text.filter { $0 != " " } }.joined()
        #expect(kept == text.filter { $0 != " " })
    }
}
