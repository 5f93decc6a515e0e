import Foundation
import Testing
import TestSupport

/// A command pays only for what it uses (issue 32): on Linux libcrypto, libncursesw and libcurl are
/// loaded with dlopen by the first code that needs them, so the commands that check no signature,
/// draw nothing and call no server load none of them. LD_DEBUG=files lists every shared object the
/// process opens, dlopen included.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "reads the Linux loader's trace"))
struct SharedLibraryLoadingTests {
    static func loaded(_ arguments: [String]) throws -> (status: Int32, libraries: Set<String>) {
        let result = try runCLI(arguments, environment: ["LD_DEBUG": "files"])
        let names = result.stderr.matches(of: #/file=([^\s\[]+)/#).map { String($0.1.split(separator: "/").last!) }
        let watched = ["libcrypto", "libncursesw", "libtinfo", "libcurl"]
        return (result.status, Set(names.filter { file in watched.contains { file.hasPrefix($0) } }))
    }

    static let inputs = ["typical.receipt", "jws/transaction.jws", "jws/notification.jws", "jws/transaction-history.json"]
        .map { Paths.samples.appendingPathComponent($0).path }

    @Test func commandsThatCheckNoSignatureLoadNoLibrary() throws {
        #expect(try Self.loaded(["--version"]) == (0, []))
        for input in Self.inputs {
            for command in [["dump"], ["explain", "--max-elements", "50"], ["json", "--no-validate"]] {
                let run = try Self.loaded(command + [input])
                #expect(run.libraries.isEmpty, "\(command) \(input) loaded \(run.libraries.sorted())")
            }
        }
    }

    @Test func verifyLoadsLibcryptoAndNothingElse() throws {
        for input in Self.inputs {
            let run = try Self.loaded(["verify", input])
            #expect(run.libraries == ["libcrypto.so.3"], "verify \(input) loaded \(run.libraries.sorted())")
        }
    }
}
