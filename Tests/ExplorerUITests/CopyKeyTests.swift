import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI
@testable import TerminalAdapter

/// `y` copies the selected node's bytes as hex: the reducer asks for it, the adapter writes OSC 52,
/// and the outcome comes back to the reducer as a message.
@Suite struct CopyKeyTests {
    @Test func yAsksToCopyTheNodeAsHex() {
        var s = Fixtures.small()
        s.selectOutlineRow(8)                                         // OCTET STRING 01 02 03 at offset 27
        let effect = press(&s, .character("y"))
        #expect(effect == .copyToClipboard(text: "0403010203", byteCount: 5, totalBytes: 5))
        reduce(&s, .effectFinished(effect!, error: nil))
        #expect(s.status == StatusMessage("copied 5 bytes as hex to the clipboard (OSC 52)"))
        s.selectOutlineRow(1)                                         // INTEGER 1
        #expect(press(&s, .character("y")) == .copyToClipboard(text: "020101", byteCount: 3, totalBytes: 3))
    }

    @Test func aLargeNodeIsCutAndTheStatusSaysSo() throws {
        let bytes = DER.octets([UInt8](repeating: 0xAB, count: 20_000))   // 04 82 4E 20 + 20,000 bytes
        var s = Fixtures.state(bytes, name: "big.der")
        let effect = try #require(press(&s, .character("y")))
        guard case let .copyToClipboard(text, count, total) = effect else { Issue.record("not a copy: \(effect)"); return }
        #expect(count == 16_384 && total == 20_004)
        #expect(text.count == 32_768 && text.hasPrefix("04824e20abab") && text.hasSuffix("abab"))
        reduce(&s, .effectFinished(effect, error: nil))
        #expect(s.status?.text == "copied the first 16,384 of 20,004 bytes as hex (node too large; w writes it whole)")
    }

    @Test func aFailedCopyIsAnError() {
        var s = Fixtures.small()
        reduce(&s, .effectFinished(.copyToClipboard(text: "30", byteCount: 1, totalBytes: 1), error: "Broken pipe"))
        #expect(s.status == StatusMessage("could not copy: Broken pipe", isError: true))
    }

    @Test func osc52BytesForASmallNode() {
        // ESC ] 5 2 ; c ; base64("0403010203") BEL
        let expected: [UInt8] = [0x1B, 0x5D] + Array("52;c;MDQwMzAxMDIwMw==".utf8) + [0x07]
        #expect(Clipboard.osc52("0403010203") == expected)
    }

    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func base64IsRFC4648(_ input: String, _ output: String) {
        #expect(Clipboard.base64(Array(input.utf8)) == Array(output.utf8))
    }
}
