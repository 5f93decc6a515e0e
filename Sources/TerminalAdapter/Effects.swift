import ExplorerUI
import Platform

/// Performs the reducer's effects (the only I/O besides drawing) and words their outcome as the
/// `.effectFinished` message the reducer gets back.
enum EffectPerformer {
    /// nil on success, else a short reason. The copy goes the way `clipboard` says (chosen once
    /// for the terminal, `ClipboardRoute.choose`).
    static func perform(_ effect: Effect, clipboard: ClipboardRoute) -> String? {
        switch effect {
        case .quit: return nil
        case .reopenLab, .compareDocuments: return nil  // slow work: `BackgroundWork` runs `effect.work` instead
        case let .writeFile(path, bytes): return FileWriter.write(bytes, to: path)
        case let .copyToClipboard(text, _, _):
            switch clipboard {
            case .osc52: return POSIX.writeAll(POSIX.standardOutput, Clipboard.osc52(text))
            case .command(let path): return Pasteboard.copy(text, command: path, environment: ProcessEnvironment.current())
            }
        }
    }
}

/// OSC 52 ("manipulate selection data"): the terminal itself puts the text on the clipboard, so it
/// works over SSH; tmux takes it into its paste buffer and passes it on with `set-clipboard on`.
public enum Clipboard {
    /// `ESC ] 52 ; c ; <base64 of text> BEL`, the form xterm, tmux, iTerm2, kitty and WezTerm read.
    public static func osc52(_ text: String) -> [UInt8] {
        [0x1B, 0x5D] + Array("52;c;".utf8) + base64(Array(text.utf8)) + [0x07]
    }

    /// Standard base64 with padding (RFC 4648 §4).
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], alphabet[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], 0x3D, 0x3D]
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [alphabet[Int(v >> 18)], alphabet[Int(v >> 12 & 63)], alphabet[Int(v >> 6 & 63)], 0x3D]
        }
        return out
    }
}

enum FileWriter {
    /// Writes `bytes` to a new file at `path` (a leading `~/` is the home directory). Never
    /// overwrites an existing file. Returns nil on success or a short reason.
    static func write(_ bytes: [UInt8], to path: String) -> String? {
        var path = path
        if path.hasPrefix("~/"), let home = POSIX.environment("HOME") { path = home + path.dropFirst() }
        guard !path.isEmpty else { return "no file name" }
        let created = POSIX.createNewFile(path)
        guard let fd = created.fd else { return created.error }
        let failure = POSIX.writeAll(fd, bytes)
        let closed = POSIX.close(fd)
        return failure ?? closed
    }
}
