import Testing
import TestSupport
import ASN1Lenient
@testable import ExplorerUI

/// Every key of the keymap, in every mode, on empty, garbage and real inputs, at several sizes:
/// never a crash, every cell printable.
@Suite struct RobustnessTests {
    static func events() -> [InputEvent] {
        var out: [InputEvent] = []
        for binding in Keymap.bindings {
            for trigger in binding.triggers {
                switch trigger {
                case .key(let e): if e != .character("q") && e != .control("c") { out.append(e) }
                case .anyClick: out += [.mouseClick(x: 5, y: 4), .mouseClick(x: 70, y: 15), .mouseClick(x: 0, y: 0), .mouseClick(x: 999, y: -3)]
                case .anyWheelUp: out.append(.wheelUp(x: 5, y: 5))
                case .anyWheelDown: out += [.wheelDown(x: 5, y: 5), .wheelDown(x: 70, y: 20)]
                case .anyResize: break
                }
            }
        }
        return out
    }

    @Test(arguments: ["empty", "garbage", "zeros", "deep", "sample", "truncated"])
    func everyKeyEverywhere(_ input: String) throws {
        let bytes: [UInt8]
        switch input {
        case "empty": bytes = []
        case "garbage": bytes = [0xFF, 0x1B, 0x9B, 0x00, 0x80, 0xC3]
        case "zeros": bytes = [UInt8](repeating: 0, count: 40)
        case "deep": bytes = (0..<300).reduce([0x05, 0x00]) { inner, _ in DER.tlv(0x30, inner) }
        case "truncated": bytes = try Paths.sample("malformed-truncated.receipt")
        default: bytes = try Paths.sample("typical.receipt")
        }
        var s = Fixtures.state(bytes, name: input)
        let sizes = [GridSize(width: 80, height: 24), GridSize(width: 60, height: 16), GridSize(width: 130, height: 45)]
        for (i, event) in Self.events().enumerated() {
            let size = sizes[i % sizes.count]
            if s.screen != size { reduce(&s, .resize(size)) }
            reduce(&s, event)
            if s.prompt != nil && i % 3 == 0 { reduce(&s, .character("1")); reduce(&s, .enter) }
            let grid = render(s, size: size)
            #expect(grid.cells.allSatisfy { UIText.isDisplaySafe($0.scalar) })
            #expect(s.outlineView.selection < max(1, s.outline.count))
        }
        #expect(reduce(&s, .character("q")) == .quit || s.help.visible || s.prompt != nil)
    }
}
