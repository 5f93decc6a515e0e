import ArgumentParser
import ByteText
import DocumentCore
import DocumentTimeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import ReceiptKit
import ServerAPI
import TextLoader
import TextOutput

/// One `api` command from options to exit status: credentials, fetch (saving each body as it
/// comes), then every body opened and verified as `verify` opens and verifies a file, and shown.
/// The fetching itself is ServerAPI's; this only wires it to the tool's options, files and words.
struct APIRunner {
    var options: APIOptions

    /// What each page became: the body's file name, the document opened from it, and its report.
    struct Verified {
        var fileName: String
        var body: [UInt8]
        var document: Document
        var report: VerificationReport
    }

    func run(_ call: APICall, timelineView: Bool = false) throws {
        let started = ContinuousClock.now
        if options.explore {
            try CommandSupport.refuseExploreUnlessInteractive(withJSONFormat: false, readsStandardInput: false,
                                                              inputs: "an input", printed: "the verdicts")
        }
        let (analysis, jws) = try options.verification()
        let directory = try prepareOut()
        var pages: [APIFetch.Page] = []
        // The client (and with it the signer holding the key) lives only for the fetch.
        let failure: APIFailure? = try {
            let client = try makeClient()
            return try APIFetch.run(call, client: client) { page in
                if let directory { try save(page, in: directory) }
                pages.append(page)
            }
        }()
        let verified = try pages.map { page in try verify(page, directory: directory, analysis: analysis, jws: jws) }
        if options.explore, failure == nil, !verified.isEmpty {
            return try ExploreCommand.explore(verified.map(\.document), color: .auto, ascii: false, mouse: true, started: started,
                                              phases: [("fetch", ContinuousClock.now - started)]) { state in
                if timelineView { state.openTimelineOverlay() }
            }
        }
        let out = OutputWriter(.standardOutput)
        switch options.format {
        case .text: out.write(text(call, verified, failure: failure))
        case .json: out.write(bytes: json(verified, failure: failure))
        }
        if options.timeline, !verified.isEmpty { out.write("\n" + TimelineText.render(Timeline.build(verified.map(\.document)))) }
        out.flush()
        if let failure {
            CommandSupport.complain(failure.description)
            throw ExitCode(failure.exitStatus)
        }
        if verified.contains(where: { Self.failed(call, $0) }) { throw ExitCode(ExitStatus.inputHasErrors) }
    }

    func makeClient() throws -> APIClient {
        let credentials = try options.credentials()
        var client = APIClient(baseURL: options.baseURL ?? options.apiEnvironment.baseURL, credentials: credentials,
                               userAgent: "receipt-explorer/\(ReceiptExplorer.version)",
                               note: { CommandSupport.complain($0) },
                               now: { Int64(time(nil)) }, sleep: { seconds in _ = sleep(UInt32(seconds)) })
        client.timeoutSeconds = options.timeout
        client.verbose = options.verbose
        return client
    }

    // MARK: --out

    /// The --out directory, made when missing; nil without --out.
    func prepareOut() throws -> String? {
        guard let out = options.out else { return nil }
        switch CommandSupport.isDirectory(out) {
        case true?: return out
        case false?:
            CommandSupport.complain("--out \(out) is a file, not a directory")
            throw ExitCode(ExitStatus.usageOrIO)
        case nil:
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                CommandSupport.complain("cannot make --out \(out): \(CommandSupport.describe(error))")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            return out
        }
    }

    /// Writes the body as it came, byte for byte.
    func save(_ page: APIFetch.Page, in directory: String) throws {
        let path = directory + "/" + page.fileName
        guard FileManager.default.createFile(atPath: path, contents: Data(page.body)) else {
            CommandSupport.complain("cannot write \(path)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    // MARK: verification

    /// The page opened and verified as `verify` would the saved file: from the file itself with
    /// --out, else from the same bytes under the same name.
    func verify(_ page: APIFetch.Page, directory: String?, analysis: AnalysisOptions, jws: JWSOptions) throws -> Verified {
        let input: DocumentInput = directory.map { .path($0 + "/" + page.fileName) } ?? .bytes(page.body, place: .file(page.fileName))
        let (document, report) = try VerifyCommand.verify(input, options: analysis, jws: jws)
        return Verified(fileName: page.fileName, body: page.body, document: document, report: report)
    }

    /// "signedTransactions[1] StoreKit 2 transaction 2000000000000002": where the item sits and which it is.
    static func itemName(_ item: VerificationReport) -> String {
        let id = item.subject.headline.first { ["transactionId", "notificationType", "originalTransactionId"].contains($0.path) }
        let parts = [item.subject.path, item.subject.label, id.map { TerminalSafe.escape($0.value) }].compactMap { $0 }
        return parts.joined(separator: " ")
    }

    /// Look Up Order ID's `status` 1: Apple found no order with that id (nothing is signed to verify).
    static func orderRefusal(_ body: [UInt8]) -> String? {
        ResponseBody.read(body).status == 1 ? "status 1: Apple found no order with this order id (OrderLookupStatus 1, invalid)" : nil
    }

    /// Whether a page failed: an order id Apple does not know, or a verification failure.
    static func failed(_ call: APICall, _ page: Verified) -> Bool {
        if needsNoVerification(call) { return false }
        if case .order = call, orderRefusal(page.body) != nil { return true }
        return !page.report.verdict.valid
    }

    /// A test-notification request answers only a token: nothing in it is signed.
    static func needsNoVerification(_ call: APICall) -> Bool { call == .testNotification }

    // MARK: output

    func text(_ call: APICall, _ verified: [Verified], failure: APIFailure?) -> String {
        var lines: [String] = []
        var items = 0, valid = 0
        for page in verified {
            if Self.needsNoVerification(call) {
                let token = ResponseBody.read(page.body).testNotificationToken ?? "(none)"
                lines.append("\(page.fileName): testNotificationToken \(TerminalSafe.escape(token))")
                continue
            }
            if case .order = call, let refusal = Self.orderRefusal(page.body) {
                lines.append("\(page.fileName): \(refusal)")
                continue
            }
            lines.append("\(page.fileName): \(VerificationText.quietLine(page.report))")
            for item in page.report.nested {
                items += 1
                if item.verdict.valid { valid += 1 }
                lines.append("  \(Self.itemName(item)): \(VerificationText.quietLine(item))")
            }
            if page.report.nested.isEmpty, !page.report.steps.isEmpty {
                items += 1
                if page.report.verdict.valid { valid += 1 }
            }
        }
        if verified.isEmpty { return lines.joined(separator: "\n") }
        let names = verified.count == 1 ? verified[0].fileName
            : "\(verified.count) pages (\(verified[0].fileName) … \(verified[verified.count - 1].fileName))"
        var summary = "fetched \(names)"
        if !Self.needsNoVerification(call) { summary += "; \(items) signed item\(items == 1 ? "" : "s"): \(valid) valid, \(items - valid) invalid" }
        if let out = options.out, !verified.isEmpty { summary += "; saved in \(TerminalSafe.escape(out))" }
        if failure != nil { summary += "; stopped by an error (below)" }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `verify --format json` report per page, compact, each naming its file (NDJSON, as batch
    /// prints), then the error that stopped the fetch, if one did.
    func json(_ verified: [Verified], failure: APIFailure?) -> [UInt8] {
        var bytes: [UInt8] = []
        for page in verified {
            let line = VerificationJSON.batchLine(page.report, input: (page.fileName, page.body.count),
                                                  source: .init(file: page.fileName, line: nil))
            bytes += Array(line.utf8)
            if bytes.last != 0x0A { bytes.append(0x0A) }
        }
        if let failure {
            let object: [String: Any] = ["error": ["code": failure.code, "message": failure.description, "exit_status": Int(failure.exitStatus)] as [String: Any]]
            bytes += Array(ReceiptJSON.serialize(object, compact: true).utf8)
            if bytes.last != 0x0A { bytes.append(0x0A) }
        }
        return bytes
    }

    // MARK: values

    static func match(_ text: String, _ values: APIValues) throws -> String {
        switch values.match(text) {
        case .success(let value): return value
        case .failure(let error): throw ValidationError(error.description)
        }
    }

    /// DATE as `--at` takes it, in epoch milliseconds as Apple's API takes it.
    static func epochMilliseconds(_ text: String, option: String) throws -> Int64 {
        guard let date = ReceiptDate.parseUserDate(text) else {
            throw ValidationError("\(option): '\(text)' is not a date (use RFC 3339 like 2024-03-05T10:00:00Z, or YYYY-MM-DD, or now)")
        }
        return date.epochMilliseconds
    }
}

extension APIFailure {
    /// The error's code in JSON: Apple's number, or what kind of failure it was.
    var code: String {
        switch kind {
        case .apple(let code): "apple-\(code)"
        case .unauthorized: "unauthorized"
        case .transport: "transport"
        case .signing: "signing"
        }
    }
}
