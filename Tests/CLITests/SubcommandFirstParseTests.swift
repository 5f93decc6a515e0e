import ArgumentParser
import Testing
@testable import receipt_explorer

/// `ReceiptExplorer.parseCommand` parses a command line that starts with a subcommand's name by
/// that subcommand alone (cheaper than the root's parse). Whatever it returns or throws must be
/// exactly what the root's parse gives, so that no way of spelling a command line reads differently.
struct SubcommandFirstParseTests {
    /// Command lines every command accepts, each option kind among them: values, repeated values,
    /// flags, option groups, `--opt=value`, `--` before a file that looks like an option, nested `api`.
    static let accepted: [[String]] = [
        ["dump", "a.receipt"],
        ["dump", "a.receipt", "--format", "json", "--color", "never", "--expect", "receipt"],
        ["explain", "t.jws", "--offset", "0x1f", "--max-elements", "0"],
        ["json", "a", "b", "--lines", "--jobs", "2", "--summary", "--no-validate", "--environment", "Sandbox"],
        ["verify", "--format=json", "x"],
        ["verify", "n.jws"],
        ["verify", "n.jws", "--root", "r1.cer", "--root", "r2.cer", "--at", "2025-10-01", "--bundle-id", "com.example",
         "--app-apple-id", "123", "--device-id", "00:11:22:33:44:55", "--app-version", "1.0", "--format", "json"],
        ["verify", "--lines", "-", "--jobs", "1", "--quiet", "--ascii"],
        ["verify", "o.json", "--key", "k.p8", "--key-id", "ABC"],
        ["verify", "--offer-signature", "MEUC", "--product-id", "p", "--offer-id", "o", "--app-account-token",
         "00000000-0000-0000-0000-000000000000", "--nonce", "00000000-0000-0000-0000-000000000001",
         "--timestamp", "1700000000000", "--key", "k.p8", "--bundle-id", "com.example", "--key-id", "K"],
        ["verify", "--", "--version"],
        ["diff", "a", "b", "--structural-limit", "3", "--format", "json", "--no-validate"],
        ["tour", "--print"],
        ["tour", "x.receipt", "--print", "--device-id", "00:11:22:33:44:55"],
        ["redact", "a", "b", "-o", "dir", "--keep", "transaction-id", "--seed", "s", "--mapping", "m.json"],
        ["timeline", "a", "b", "--at", "2025-01-01", "--transaction", "42", "--format", "json"],
        ["explore", "a.receipt", "--ascii", "--no-mouse", "--root", "r.cer"],
        ["explore"],
        ["api", "transaction", "2000000123", "--key", "k.p8", "--key-id", "K", "--issuer", "i", "--bundle-id", "b",
         "--environment", "sandbox", "--base-url", "http://127.0.0.1:1"],
        ["api", "history", "2000000123", "--product-id", "a", "--product-id", "b", "--revoked", "--sort", "descending",
         "--environment", "production"],
        ["api", "notifications", "--start", "2025-01-01", "--end", "now", "--only-failures", "--environment", "sandbox"],
        ["api", "test-notification", "--status", "tok", "--environment", "sandbox"],
        ["api"],
    ]

    /// Command lines the subcommand alone does not answer as the root does: help and version
    /// requests, usage errors, and ArgumentParser's `help`, which it would offer `api` as a root.
    static let refused: [[String]] = [
        ["verify", "--help"], ["dump", "-h"], ["verify", "--version"], ["dump", "a", "--version"],
        ["verify", "--no-such-option"], ["dump"], ["dump", "a", "b"], ["verify", "--jobs", "0", "x"],
        ["verify", "--quiet", "--format", "json", "x"], ["explain", "x", "--max-elements", "-1"],
        ["api", "help"], ["api", "help", "transaction"], ["api", "transaction"],
        ["redact", "a"], ["diff", "-", "-"], ["json", "--generate-completion-script", "bash"],
    ]

    static func rootReading(_ arguments: [String]) -> String {
        do { return "parsed " + String(reflecting: try ReceiptExplorer.parseAsRoot(arguments)) } catch {
            return "threw \(ReceiptExplorer.exitCode(for: error).rawValue) " + ReceiptExplorer.fullMessage(for: error)
        }
    }

    static func reading(_ arguments: [String]) -> String {
        do { return "parsed " + String(reflecting: try ReceiptExplorer.parseCommand(arguments)) } catch {
            return "threw \(ReceiptExplorer.exitCode(for: error).rawValue) " + ReceiptExplorer.fullMessage(for: error)
        }
    }

    static func subcommandAloneParses(_ arguments: [String]) -> Bool {
        ReceiptExplorer.subcommandReading(arguments) != nil
    }

    @Test("an accepted command line is parsed by its subcommand alone, into the value the root's parse gives", arguments: accepted)
    func acceptedLinesReadAsTheRootReadsThem(_ arguments: [String]) {
        #expect(Self.subcommandAloneParses(arguments))
        let root = Self.rootReading(arguments)
        #expect(root.hasPrefix("parsed receipt_explorer."))
        #expect(Self.reading(arguments) == root)
    }

    @Test("the reading compared is the parsed values, not only the command's type")
    func readingCarriesTheValues() {
        let reading = Self.reading(["verify", "n.jws", "--root", "r1.cer", "--root", "r2.cer", "--jobs", "3"])
        for value in ["n.jws", "r1.cer", "r2.cer", "3"] { #expect(reading.contains("\"\(value)\"") || reading.contains("(\(value))")) }
        #expect(reading != Self.reading(["verify", "n.jws", "--root", "r1.cer", "--jobs", "3"]))
    }

    @Test("anything else is answered by the root's parse: the same message and exit status", arguments: refused)
    func otherLinesAreTheRootsAnswer(_ arguments: [String]) {
        #expect(!Self.subcommandAloneParses(arguments))
        #expect(Self.reading(arguments) == Self.rootReading(arguments))
    }

    @Test("every subcommand names the root as its super-command, and the root names none")
    func subcommandsNameTheRoot() {
        // The name makes ArgumentParser skip its completion-script check when a parse starts at the
        // subcommand; it shows in no help, usage or completion script, which the root's parse writes.
        #expect(ReceiptExplorer.configuration._superCommandName == nil)
        for subcommand in ReceiptExplorer.configuration.subcommands {
            #expect(subcommand.configuration._superCommandName == "receipt-explorer", "\(subcommand)")
        }
        #expect(Self.reading(["verify", "--help"]).hasPrefix("parsed ArgumentParser.HelpCommand("))
        #expect(ReceiptExplorer.helpMessage(for: VerifyCommand.self).contains("USAGE: receipt-explorer verify "))
        #expect(ReceiptExplorer.helpMessage(for: APITransactionCommand.self).contains("USAGE: receipt-explorer api transaction "))
        #expect(Self.reading(["verify", "--generate-completion-script", "bash"]).contains("_receipt-explorer() {"))
    }

    @Test("the command types are every command below the root, nested api commands included")
    func commandTypesAreTheWholeTree() {
        let types = ReceiptExplorer.commandTypes
        #expect(types.contains(ObjectIdentifier(VerifyCommand.self)))
        #expect(types.contains(ObjectIdentifier(ExploreCommand.self)))
        #expect(!types.contains(ObjectIdentifier(ReceiptExplorer.self)))
        // 10 commands below the root, 8 below `api`.
        #expect(types.count == ReceiptExplorer.configuration.subcommands.count
                + APICommand.configuration.subcommands.count)
        #expect(types.count == 18)
    }
}
