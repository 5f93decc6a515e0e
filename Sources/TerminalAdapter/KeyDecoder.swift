import CNcurses
import ExplorerUI

/// Turns what `get_wch` returned into a `InputEvent`; nil for keys the UI has no use for.
enum KeyDecoder {
    static func character(_ code: UInt32) -> InputEvent? {
        switch code {
        case 0x0D, 0x0A: return .enter // nonl(): Enter arrives as CR; Ctrl-J as LF
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x08, 0x7F: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(0x60 + code)!))
        case 0x00...0x1F, 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .character(Character(scalar))
        }
    }

    static func keyCode(_ code: Int32) -> InputEvent? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE, KEY_SPREVIOUS: return .pageUp
        case KEY_NPAGE, KEY_SNEXT: return .pageDown
        case KEY_HOME, KEY_FIND, KEY_A1, KEY_BEG: return .home
        case KEY_END, KEY_SELECT, KEY_C1, KEY_LL: return .end
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        default: return nil
        }
    }

    static func mouse() -> InputEvent? {
        var x: Int32 = 0
        var y: Int32 = 0
        switch cn_get_mouse(&x, &y) {
        case Int32(CN_MOUSE_CLICK): return .mouseClick(x: Int(x), y: Int(y))
        case Int32(CN_MOUSE_WHEEL_UP): return .wheelUp(x: Int(x), y: Int(y))
        case Int32(CN_MOUSE_WHEEL_DOWN): return .wheelDown(x: Int(x), y: Int(y))
        default: return nil
        }
    }
}
