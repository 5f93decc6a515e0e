import ASN1Lenient
import ByteText

/// `--color auto|always|never`.
public enum ColorChoice: String, CaseIterable, Sendable {
    case auto, always, never

    /// Whether to colour: `always` and `never` are explicit; `auto` colours only when the output
    /// is a terminal and `NO_COLOR` is unset or empty (https://no-color.org).
    public func enabled(outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let value = environment["NO_COLOR"], !value.isEmpty { return false }
            return outputIsTerminal
        }
    }
}

/// ANSI SGR sequences used by the text formats. All of them are fixed strings written by us; no
/// byte from the input ever becomes part of an escape sequence.
public enum ANSIStyle: String, Sendable {
    case reset = "\u{1B}[0m"
    case bold = "\u{1B}[1m"
    case dim = "\u{1B}[2m"
    case red = "\u{1B}[1;31m"
    case yellow = "\u{1B}[33m"
    case magenta = "\u{1B}[35m"
    case cyan = "\u{1B}[36m"
    case green = "\u{1B}[32m"

    /// The colour of a severity: error red, der yellow, warning magenta, info cyan.
    public static func of(_ severity: Severity) -> ANSIStyle {
        switch severity {
        case .error: .red
        case .notDER: .yellow
        case .warning: .magenta
        case .info: .cyan
        }
    }
}

/// Wraps text in a style when colour is on.
public struct Painter: Sendable {
    public var enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public func paint(_ text: String, _ style: ANSIStyle) -> String {
        enabled && !text.isEmpty ? style.rawValue + text + ANSIStyle.reset.rawValue : text
    }
}
