import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// No binding is shadowed: every key in the keymap reaches its own action in its own context.
@Suite struct KeymapCoverageTests {
    @Test func everyBindingIsReachable() {
        for binding in Keymap.bindings {
            for trigger in binding.triggers {
                let event: InputEvent
                switch trigger {
                case .key(let e): event = e
                case .anyClick: event = .mouseClick(x: 1, y: 1)
                case .anyWheelUp: event = .wheelUp(x: 1, y: 1)
                case .anyWheelDown: event = .wheelDown(x: 1, y: 1)
                case .anyResize: event = .resize(GridSize(width: 80, height: 24))
                }
                let context = binding.context == .mouse ? KeyContext.tree : binding.context
                #expect(Keymap.binding(for: event, in: context)?.action == binding.action,
                        "\(binding.keys) in \(binding.context) does not reach \(binding.action)")
            }
        }
    }
}
