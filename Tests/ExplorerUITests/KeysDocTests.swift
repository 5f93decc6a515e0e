import Testing
import TestSupport
@testable import ExplorerUI

/// `docs/manual/keys.md` is generated from the keymap (the same table the reducer dispatches on and the
/// help overlay shows), so it cannot drift. Regenerate: `RECORD_SNAPSHOTS=1 swift test --filter KeysDocTests`.
@Suite struct KeysDocTests {
    static let path = Paths.packageRoot.appendingPathComponent("docs/manual/keys.md").path

    @Test func docsMatchTheKeymap() {
        let generated = Keymap.markdown()
        if Snapshot.recording {
            Snapshot.writeFile(Self.path, generated)
            Issue.record("wrote docs/manual/keys.md; run again without RECORD_SNAPSHOTS=1")
            return
        }
        let committed = Fixtures.readFile(Self.path).map { String(decoding: $0, as: UTF8.self) }
        #expect(committed == generated, "docs/manual/keys.md is stale: regenerate with RECORD_SNAPSHOTS=1 swift test --filter KeysDocTests")
    }
}
