import Foundation
import Testing

/// A StoreKit 2 token in the real binary: `/` finds a string inside an x5c certificate (two base64
/// layers below the file's characters) and `:` takes a file offset to the payload field its
/// characters encode. samples/jws/transaction.jws: character 3641 decodes into payload byte 1,
/// inside `"transactionId":"2000000510000004"`.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxJWSTests {
    @Test func searchAndGoToAnOffsetInAToken() throws {
        let tmux = try TmuxHarness(arguments: ["samples/jws/transaction.jws", "--root", "samples/pki/test-ec-root.cer"],
                                   width: 120, height: 40)
        defer { tmux.close() }
        _ = try #require(tmux.waitForScreen("the token's outline") {
            $0.statusBar.hasPrefix(" transaction.jws · 4,556 B · JWS · @0x0 · file") && $0.contains("▾ token  StoreKit 2 transaction · ES256, 3")
        })

        try tmux.send("/")
        tmux.waitForText(" Search:")
        try tmux.type("StoreKit Signing")
        tmux.waitForLine(" Search: StoreKit Signing")
        try tmux.send("Enter")
        let found = try #require(tmux.waitForScreen("the hit inside x5c[0]") {
            $0.firstLine.hasSuffix("match 1 of 1 for \"StoreKit Signing\"") && $0.statusBar.contains(" · x5c[0] ")
        })
        #expect(found.contains("UTF8String (42)  \"rece"))
        #expect(found.contains("value            \"receipt-explorer TEST ECC StoreKit Signing\""))
        #expect(found.contains("▾ x5c  [3]"))

        try tmux.send(":")
        tmux.waitForText(" Go to offset (decimal or 0x hex):")
        try tmux.type("3641")
        try tmux.send("Enter")
        let jumped = try #require(tmux.waitForScreen("the payload field at file offset 3641") {
            $0.firstLine.hasSuffix("file offset 0xE39 (3641): transactionId (payload byte 1)")
                && $0.statusBar.contains(" · @0xE38 · payload ")
        })
        #expect(jumped.contains("transactionId  2000000510000004"))
        #expect(jumped.contains("Bytes: payload (text), b: token chars"))

        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }
}
