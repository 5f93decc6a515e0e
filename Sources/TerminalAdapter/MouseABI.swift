import CNcursesShim
import ExplorerUI

/// ncurses' mouse event bits, which differ by ABI. Version 2 (ncurses 6, Linux) gives each button
/// five bits and has BUTTON5_PRESSED for wheel-down. Version 1 (ncurses 5, the macOS SDK) gives
/// each button six bits and has no button 5: wheel-down arrives either as a lone
/// REPORT_MOUSE_POSITION bit (ncurses 5.8 on: lib_mouse.c "Ignore this event as it is not a true
/// press of the button") or, from older ncurses 5, as a button-2 press. The explorer gives the
/// middle button no other meaning, so both are read as wheel-down there.
public struct MouseABI: Equatable, Sendable {
    public let version: Int

    public init(version: Int) { self.version = version }

    /// curses.h's NCURSES_MOUSE_MASK(button, event).
    func mask(button: Int, _ event: UInt64) -> UInt64 {
        event << UInt64((button - 1) * (version > 1 ? 5 : 6))
    }

    public var button1Pressed: UInt64 { mask(button: 1, 0o2) }
    public var button1Clicked: UInt64 { mask(button: 1, 0o4) }
    public var button2Pressed: UInt64 { mask(button: 2, 0o2) }
    public var button4Pressed: UInt64 { mask(button: 4, 0o2) }
    /// 0 on version 1, which has no button 5.
    public var button5Pressed: UInt64 { version > 1 ? mask(button: 5, 0o2) : 0 }
    public var reportMousePosition: UInt64 { mask(button: version > 1 ? 6 : 5, 0o10) }

    /// What to ask `mousemask` for.
    public var wanted: UInt64 {
        version > 1 ? button1Pressed | button1Clicked | button4Pressed | button5Pressed
            : button1Pressed | button1Clicked | button4Pressed | button2Pressed | reportMousePosition
    }

    /// One mouse event's bits as the explorer's event at (x, y); nil for nothing it uses.
    public func decode(_ bits: UInt64, x: Int, y: Int) -> InputEvent? {
        if bits & button4Pressed != 0 { return .wheelUp(x: x, y: y) }
        if version > 1 {
            if bits & button5Pressed != 0 { return .wheelDown(x: x, y: y) }
        } else if bits == reportMousePosition || bits & button2Pressed != 0 {
            return .wheelDown(x: x, y: y)
        }
        if bits & (button1Pressed | button1Clicked) != 0 { return .mouseClick(x: x, y: y) }
        return nil
    }
}

extension MouseABI {
    /// The ABI of the curses.h the shim was compiled against.
    public static var compiled: MouseABI { MouseABI(version: Int(cn_mouse_version())) }

    /// The compiled header's own BUTTON* / REPORT_MOUSE_POSITION values (0 where it has none), so a
    /// test can check `MouseABI`'s arithmetic against the real header on each system.
    public static func headerMasks() -> (button1Pressed: UInt64, button1Clicked: UInt64, button2Pressed: UInt64,
                                         button4Pressed: UInt64, button5Pressed: UInt64, reportMousePosition: UInt64) {
        (cn_mouse_mask_named(Int32(CN_MASK_BUTTON1_PRESSED)), cn_mouse_mask_named(Int32(CN_MASK_BUTTON1_CLICKED)),
         cn_mouse_mask_named(Int32(CN_MASK_BUTTON2_PRESSED)), cn_mouse_mask_named(Int32(CN_MASK_BUTTON4_PRESSED)),
         cn_mouse_mask_named(Int32(CN_MASK_BUTTON5_PRESSED)), cn_mouse_mask_named(Int32(CN_MASK_REPORT_MOUSE_POSITION)))
    }
}
