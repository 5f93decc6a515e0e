#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `receipt-explorer verfy FILE`: explore is the default subcommand, so ArgumentParser takes a
/// mistyped subcommand for a FILE to explore and the user learns only that the file cannot be read
/// (or that the explorer needs a terminal). When the first argument is no file, no subcommand and
/// within two edits of one, the tool says which one was meant.
enum SubcommandSuggestion {
    /// The longest distance still taken for a typo ("verfy" → "verify" is 1, "jsno" → "json" 2).
    static let maximumDistance = 2

    /// The complaint (unescaped: `CommandSupport.complain` escapes it) for `arguments` (without the program name), or nil when the first one is an
    /// option, a subcommand, an existing file, or not close to any subcommand.
    static func complaint(arguments: [String], subcommands: [String],
                          fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-"), !subcommands.contains(word), word != "help",
              !fileExists(word) else { return nil }
        let scored = subcommands.map { ($0, distance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= maximumDistance else { return nil }
        return "'\(word)' is neither a file nor a subcommand; did you mean '\(best.0)'? (receipt-explorer \(best.0) --help)"
    }

    /// Levenshtein distance over characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }
}

/// How the arguments reach ArgumentParser.
enum ArgumentSpelling {
    /// `--format json` as `--format=json`, which ArgumentParser reads as the same option and value.
    /// Spelled apart, a value named like a command (`json`) makes ArgumentParser reflect that whole
    /// command and the default one while parsing the root (≈ 3 M instructions, more than the JSON
    /// report's own writing): `verify --format json` was slower than `verify` for it. Every
    /// command's `--format` takes a value; nothing after `--` is touched.
    static func joiningFormatValues(_ arguments: [String], commands: Set<String>) -> [String] {
        var out: [String] = []
        out.reserveCapacity(arguments.count)
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { return out + arguments[index...] }
            if argument == "--format", index + 1 < arguments.count, commands.contains(arguments[index + 1]) {
                out.append("--format=" + arguments[index + 1])
                index += 2
                continue
            }
            out.append(argument)
            index += 1
        }
        return out
    }
}
