import Foundation
import Testing
import TestSupport

/// Every reading option × every kind, through the real binary: an option is applied (the output
/// changes as documented: the step it feeds is checked, the moment it sets is the one judged, the
/// trust or key it gives changes the verdict) or refused (exit status 2, one line naming the option
/// and the kind). Nothing is silently ignored. A new kind joins by adding one row, a new option one
/// column (`Option`) and its check.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct OptionMatrixTests {
    enum Option: String, CaseIterable, Sendable {
        case at = "--at", environment = "--environment", bundleID = "--bundle-id", appAppleID = "--app-apple-id"
        case appVersion = "--app-version", root = "--root", key = "--key", keyID = "--key-id", deviceID = "--device-id"
        case expect = "--expect", noValidate = "--no-validate"
    }

    /// One sample of a kind: its file (relative to the package root), the root it verifies with,
    /// how the refusals name it, and the options it uses (every other option is refused).
    struct Kind: Sendable, CustomStringConvertible {
        var name: String
        var file: String
        var root: String?
        var summary: String
        var applies: Set<Option>
        /// Arguments `verify` takes for this kind beside the option a cell tests (that option's own
        /// entry left out): a V1 signature needs the key and the bundle id to be checked at all.
        var base: [Option: [String]] = [:]
        /// The step an option feeds, where it is not the usual one (a V1 signature's one step).
        var step: [Option: String] = [:]
        /// Options applied as an information step, not a comparison (a Sandbox Retention Messaging
        /// request's --app-apple-id: Apple's verifier compares it only in Production).
        var informs: Set<Option> = []
        var description: String { name }
    }

    static let signedTokenOptions: Set<Option> = [.at, .root, .expect, .noValidate]

    static let kinds: [Kind] = [
        Kind(name: "receipt", file: "samples/typical.receipt", root: "samples/pki/test-root.cer", summary: "a PKCS#7 App Store receipt",
             applies: [.at, .environment, .bundleID, .appAppleID, .appVersion, .root, .deviceID, .expect, .noValidate]),
        // Receipt type Xcode, BER, signed by a TEST StoreKit Testing certificate (not Xcode's pinned one): a receipt.
        Kind(name: "Xcode receipt", file: "samples/xcode-ber.receipt", root: "samples/pki/test-storekit.cer",
             summary: "a PKCS#7 App Store receipt",
             applies: [.at, .environment, .bundleID, .appAppleID, .appVersion, .root, .deviceID, .expect, .noValidate]),
        Kind(name: "transaction", file: "samples/jws/transaction.jws", root: "samples/pki/test-ec-root.cer",
             summary: "a StoreKit 2 transaction", applies: signedTokenOptions.union([.environment, .bundleID])),
        Kind(name: "renewal info", file: "samples/jws/renewal-info.jws", root: "samples/pki/test-ec-root.cer",
             summary: "a StoreKit 2 renewal info", applies: signedTokenOptions.union([.environment])),
        Kind(name: "app transaction", file: "samples/jws/app-transaction.jws", root: "samples/pki/test-ec-root.cer",
             summary: "a StoreKit 2 app transaction", applies: signedTokenOptions.union([.environment, .bundleID, .appAppleID])),
        Kind(name: "notification", file: "samples/jws/notification.jws", root: "samples/pki/test-ec-root.cer",
             summary: "an App Store Server Notification V2: DID_RENEW (no subtype)",
             applies: signedTokenOptions.union([.environment, .bundleID, .appAppleID])),
        Kind(name: "history body", file: "samples/jws/transaction-history.json", root: "samples/pki/test-ec-root.cer",
             summary: "a transaction history response: 2 transactions",
             applies: signedTokenOptions.union([.environment, .bundleID])),
        Kind(name: "refund history", file: "samples/apple/refund-history.json", root: "samples/pki/test-ec-root.cer",
             summary: "a refund history response (RefundHistoryResponse, Get Refund History, App Store Server API 1.6): 2 refunded transactions",
             applies: signedTokenOptions.union([.environment, .bundleID])),
        Kind(name: "Retention Messaging request", file: "samples/apple/retention-request.json", root: "samples/pki/test-ec-root.cer",
             summary: "a Retention Messaging real-time request (DecodedRealtimeRequestBody, signed by Apple)",
             applies: signedTokenOptions.union([.environment, .appAppleID]), informs: [.appAppleID]),
        Kind(name: "notification history", file: "samples/apple/notification-history.json", root: "samples/pki/test-ec-root.cer",
             summary: "a notification history response (NotificationHistoryResponse, Get Notification History, App Store Server API 1.5): 2 notifications",
             applies: signedTokenOptions.union([.environment, .bundleID, .appAppleID])),
        Kind(name: "Retention Messaging reply", file: "samples/apple/retention-promotional-offer-v2.json", root: nil,
             summary: "a Retention Messaging reply: a promotional offer (RealtimeResponseBody.promotionalOffer)",
             applies: [.at, .bundleID, .key, .keyID, .expect, .noValidate]),
        Kind(name: "V1 offer signature", file: "samples/apple/offer-signature-v1.json", root: nil,
             summary: "a promotional offer signature (V1: ECDSA over fields joined by U+2063)",
             applies: [.bundleID, .key, .keyID, .expect],
             base: [.key: ["--key", "samples/developer/SubscriptionKey_TESTKEY001.p8"], .bundleID: ["--bundle-id", "com.example.receiptexplorer"]],
             step: [.bundleID: "offer-signature-v1", .keyID: "offer-signature-v1"]),
        Kind(name: "developer-signed token", file: "samples/developer/promotional-offer.jws", root: nil,
             summary: "a promotional offer signature (V2, developer-signed JWS)",
             applies: [.at, .bundleID, .key, .keyID, .expect, .noValidate]),
        Kind(name: "external purchase token", file: "samples/external/external-purchase-token.txt", root: nil,
             summary: "an external purchase token (base64url JSON, unsigned)", applies: [.environment, .bundleID, .appAppleID, .expect]),
        Kind(name: "certificate", file: "samples/pki/test-ec-root.cer", root: nil, summary: "an X.509 certificate", applies: [.expect]),
        Kind(name: "other DER", file: OptionMatrixTests.otherDER, root: nil, summary: "other ASN.1 (not a receipt or a certificate)",
             applies: [.expect]),
        Kind(name: "text", file: OptionMatrixTests.text, root: nil, summary: "text without purchase data",
             applies: [.expect]),
    ]

    /// A DER SEQUENCE { INTEGER 1, UTF8String "x" }: ASN.1 that is neither a receipt nor a certificate.
    static let otherDER: String = write("other.der", Data([0x30, 0x06, 0x02, 0x01, 0x01, 0x0C, 0x01, 0x78]))
    /// Prose: no data in it.
    static let text: String = write("notes.txt", Data("These are my notes about the app; nothing to decode here.\n".utf8))

    static func write(_ name: String, _ data: Data) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("option-matrix-\(getpid())-\(name)")
        try? data.write(to: url)
        return url.path
    }

    struct Cell: Sendable, CustomStringConvertible {
        var kind: Kind
        var option: Option
        var description: String { "\(option.rawValue) × \(kind.name)" }
    }

    static let cells: [Cell] = kinds.flatMap { kind in Option.allCases.map { Cell(kind: kind, option: $0) } }

    /// The command and value each option is given with; `json` for the options only it takes.
    static func arguments(_ option: Option, _ kind: Kind) -> (command: [String], value: [String]) {
        let verify = ["verify", "--format", "json"]
        switch option {
        case .at: return (verify, ["--at", "2030-01-02"])
        case .environment: return (verify, ["--environment", "Production"])
        case .bundleID: return (verify, ["--bundle-id", "com.example.other"])
        case .appAppleID: return (verify, ["--app-apple-id", "999"])
        case .appVersion: return (verify, ["--app-version", "9.9"])
        case .root: return (verify, ["--root", kind.root ?? "samples/pki/test-root.cer"])
        case .key: return (verify, ["--key", "samples/developer/SubscriptionKey_TESTKEY001.p8"])
        case .keyID: return (verify, ["--key-id", "OTHERKEY99"])
        case .deviceID: return (verify, ["--device-id", "A1B2C3D4-E5F6-4789-9ABC-DEF012345678"])
        case .expect: return (["json"], ["--expect", "transaction"])
        case .noValidate: return (["json"], ["--no-validate"])
        }
    }

    /// Runs every cell at once (each cell is two runs of the binary: without and with the option).
    static let results: [String: (without: CLIResult, with: CLIResult)] = {
        final class Box: @unchecked Sendable { var results: [String: (CLIResult, CLIResult)] = [:]; let lock = NSLock() }
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: cells.count) { i in
            let cell = cells[i]
            let (command, value) = arguments(cell.option, cell.kind)
            // The root every verification of the kind uses, except in the --root cell itself.
            let verifying = command.first == "verify"
            let base = command + [cell.kind.file] + (cell.option != .root && verifying ? cell.kind.root.map { ["--root", $0] } ?? [] : [])
                + (verifying ? cell.kind.base.filter { $0.key != cell.option }.sorted { $0.key.rawValue < $1.key.rawValue }.flatMap(\.value) : [])
            guard let without = try? run(base), let with = try? run(base + value) else { return }
            box.lock.lock()
            box.results[cell.description] = (without, with)
            box.lock.unlock()
        }
        return box.results
    }()

    static func run(_ arguments: [String]) throws -> CLIResult {
        let binary = try #require(cliBinary)
        return try runProgram(binary, arguments.map { $0.hasPrefix("samples/") ? Paths.packageRoot.appendingPathComponent($0).path : $0 })
    }

    static func json(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// Every step of a verify report and its nested reports.
    static func steps(_ report: [String: Any]) -> [[String: Any]] {
        ((report["steps"] as? [[String: Any]]) ?? []) + ((report["nested"] as? [[String: Any]]) ?? []).flatMap(steps)
    }

    static func statuses(_ report: [String: Any]?, _ id: String) -> [String] {
        steps(report ?? [:]).filter { $0["id"] as? String == id }.compactMap { $0["status"] as? String }
    }

    static func verdict(_ report: [String: Any]?) -> [String: Any] { report?["verdict"] as? [String: Any] ?? [:] }

    @Test("each option × kind is applied as documented or refused with exit 2 naming both", arguments: cells)
    func cell(_ cell: Cell) throws {
        let pair = try #require(Self.results[cell.description], "the binary did not run")
        let (without, with) = pair
        let option = cell.option
        guard cell.kind.applies.contains(option) else {
            #expect(with.status == 2, "\(with.stdout)")
            #expect(with.stdout.isEmpty)
            #expect(with.stderr.hasPrefix("receipt-explorer: \(option.rawValue) does not apply to \(cell.kind.summary): "), "\(with.stderr)")
            #expect(with.stderr.split(separator: "\n").count == 1)
            return
        }
        #expect(with.status != 2, "\(with.stderr)")
        let before = Self.json(without.stdout), after = Self.json(with.stdout)
        switch option {
        case .at:
            // The moment given is the one judged: the expiration step (receipts), today's validity
            // (tokens), iat and exp (developer-signed).
            let judged = Self.steps(after ?? [:]).compactMap { $0["judged_at"] as? String }
            #expect(judged.contains("2030-01-02T00:00:00.000Z"), "\(with.stdout)")
            #expect(!Self.steps(before ?? [:]).contains { $0["judged_at"] as? String == "2030-01-02T00:00:00.000Z" })
        case .environment, .bundleID, .appAppleID, .appVersion, .deviceID:
            let id = cell.kind.step[option] ?? ["--environment": "environment", "--bundle-id": "bundle-id", "--app-apple-id": "app-apple-id",
                                                "--app-version": "app-version", "--device-id": "device-hash"][option.rawValue]!
            if cell.kind.informs.contains(option) {
                // Applied as a step that informs (it says why it is not compared) and decides nothing.
                #expect(Self.statuses(before, id).allSatisfy { $0 == "not-checked" })
                #expect(Self.statuses(after, id) == ["info"], "\(with.stdout)")
                #expect(with.status == without.status)
                return
            }
            // Unchecked without the option; checked with it (a wrong bundle id, app Apple ID or version fails).
            #expect(Self.statuses(before, id).allSatisfy { $0 == "not-checked" })
            let checked = Self.statuses(after, id).filter { $0 == "passed" || $0 == "failed" }
            #expect(!checked.isEmpty, "\(with.stdout)")
            if [.bundleID, .appAppleID, .appVersion].contains(option) {
                #expect(checked.contains("failed"))
                #expect(with.status == 1)
            }
            if option == .deviceID { #expect(checked == ["passed"]) }
        case .root:
            // Without it the chain ends at an untrusted root (a receipt's chain step, a token's root
            // step fails); with it that step passes.
            let id = cell.kind.name.hasSuffix("receipt") ? "chain" : "root"
            #expect(Self.statuses(before, id).contains("failed"))
            #expect(!Self.statuses(after, id).isEmpty && Self.statuses(after, id).allSatisfy { $0 == "passed" }, "\(with.stdout)")
            if cell.kind.name != "Xcode receipt" { #expect(Self.verdict(after)["valid"] as? Bool == true) }
        case .key:
            #expect(Self.verdict(before)["outcome"] as? String == "key-needed")
            #expect(Self.verdict(after)["outcome"] as? String == "developer-key", "\(with.stdout)")
            #expect(with.status == 0)
        case .keyID:
            let id = cell.kind.step[.keyID] ?? "kid"
            #expect(Self.statuses(after, id) == ["failed"], "\(with.stdout)")
            #expect(Self.statuses(before, id) != ["failed"])
        case .expect:
            if cell.kind.name == "transaction" {
                #expect(with.stdout == without.stdout)
                #expect(with.status == without.status)
            } else {
                #expect(with.status == 1)
                #expect(with.stderr.contains(", not a transaction"), "\(with.stderr)")
            }
        case .noValidate:
            // The decoded document is the same; its verification is gone.
            #expect(with.stdout != without.stdout)
            #expect(without.stdout.contains("\"signature\""))
            #expect(with.stdout.contains("validation-not-requested") || with.stdout.contains("not-validated") || !with.stdout.contains("\"steps\""),
                    "\(with.stdout.prefix(2000))")
        }
    }

    @Test("the options × kinds table the docs print is the one the binary applies")
    func documentedTable() throws {
        let manual = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/options.md"), encoding: .utf8)
        for kind in Self.kinds {
            let row = try #require(manual.split(separator: "\n").first { $0.hasPrefix("| \(kind.name) |") }, "no row for \(kind.name)")
            let marks = row.split(separator: "|").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(marks.count == Option.allCases.count, "\(row)")
            for (option, mark) in zip(Option.allCases, marks) {
                #expect(mark == (kind.applies.contains(option) ? "✓" : "refused"), "\(kind.name) \(option.rawValue)")
            }
        }
    }
}
