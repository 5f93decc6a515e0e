import CNcursesShim
import ExplorerUI

/// Turns what `cn_read` returned into an `InputEvent`; nil for keys the UI has no use for.
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

    /// A CN_KEY_* (shim.c maps curses' KEY_* codes, which Swift cannot import, onto them).
    static func key(_ kind: Int32) -> InputEvent? {
        switch Int(kind) {
        case CN_KEY_UP: return .up
        case CN_KEY_DOWN: return .down
        case CN_KEY_LEFT: return .left
        case CN_KEY_RIGHT: return .right
        case CN_KEY_PAGE_UP: return .pageUp
        case CN_KEY_PAGE_DOWN: return .pageDown
        case CN_KEY_HOME: return .home
        case CN_KEY_END: return .end
        case CN_KEY_ENTER: return .enter
        case CN_KEY_BACK_TAB: return .backTab
        case CN_KEY_BACKSPACE: return .backspace
        default: return nil
        }
    }

    /// The pending mouse event, decoded for the compiled curses' mouse ABI.
    static func mouse(_ abi: MouseABI) -> InputEvent? {
        var x: Int32 = 0
        var y: Int32 = 0
        var bits: UInt64 = 0
        guard cn_get_mouse(&x, &y, &bits) != 0 else { return nil }
        return abi.decode(bits, x: Int(x), y: Int(y))
    }
}
