import Foundation
import Testing
import TestSupport

/// `api …` against the stand-in server (Scripts/storekit-standin.py on 127.0.0.1): the requests as
/// Apple documents them, the token as Apple checks it, pages, retries, Apple's errors, the saved
/// bytes, verification as `verify` does it, and no secret in any output.
@Suite(.enabled(if: cliBinary != nil && StandInServer.available, "needs the built binary and python3 with cryptography"))
struct APICommandTests {
    static let txn = "2000000000000001"

    /// Runs `api ARGS` against `server` (with `--out` in a fresh directory when `save`).
    func api(_ server: StandInServer, _ args: [String], path: String = "", out: URL? = nil, extra: [String] = []) throws -> CLIResult {
        try runCLI(["api"] + args + server.options(path) + (out.map { ["--out", $0.path] } ?? []) + extra)
    }

    func freshDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("api-out-\(UUID().uuidString)")
    }

    /// Asserts the token and the key appear in no output and no saved file.
    func expectNoSecrets(_ server: StandInServer, _ results: [CLIResult], out: URL? = nil) throws {
        let tokens = try server.requests().compactMap(\.authorization).map { String($0.dropFirst("Bearer ".count)) }
        #expect(!tokens.isEmpty)
        let pem = try String(contentsOfFile: server.keyPath, encoding: .utf8)
        let keyLines = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
        var texts = results.flatMap { [$0.stdout, $0.stderr] }
        if let out {
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                texts.append(try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8))
            }
        }
        for text in texts {
            for token in tokens {
                #expect(!text.contains(token))
                #expect(!text.contains(String(token.split(separator: ".")[2])), "the token's signature")
            }
            for line in keyLines { #expect(!text.contains(line), "a line of the key") }
            #expect(!text.contains("PRIVATE KEY"))
        }
    }

    @Test func transactionRequestAndTokenAsAppleDocuments() throws {
        let server = try StandInServer()
        let result = try api(server, ["transaction", Self.txn])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            transaction-001.json: VALID — valid, anchored at a root you supplied
            fetched transaction-001.json; 1 signed item: 1 valid, 0 invalid

            """)
        let requests = try server.requests()
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "GET" && request.path == "/inApps/v1/transactions/\(Self.txn)" && request.query.isEmpty)
        #expect(request.headers["User-Agent"]?.hasPrefix("receipt-explorer/0.") == true)
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.tokenHeader["alg"] as? String == "ES256" && request.tokenHeader["kid"] as? String == "STANDIN01")
        #expect(request.tokenHeader["typ"] as? String == "JWT" && request.tokenHeader.count == 3)
        #expect(request.claims["iss"] as? String == StandInServer.issuer)
        #expect(request.claims["aud"] as? String == "appstoreconnect-v1")
        #expect(request.claims["bid"] as? String == StandInServer.bundleID)
        let iat = try #require(request.claims["iat"] as? Int), exp = try #require(request.claims["exp"] as? Int)
        #expect(exp - iat == 300)
        #expect(abs(iat - Int(Date().timeIntervalSince1970)) < 120)
        try expectNoSecrets(server, [result])
    }

    @Test func historyWithEveryFilterFollowsRevisionAndSavesBytes() throws {
        let server = try StandInServer()
        let out = freshDirectory()
        let result = try api(server, ["history", Self.txn, "--start", "2025-01-01T00:00:00Z", "--end", "2025-03-01",
                                      "--product-id", "com.example.a", "--product-id", "b c", "--product-type", "auto_renewable",
                                      "--product-type", "Consumable", "--group", "21000001", "--ownership", "purchased",
                                      "--not-revoked", "--sort", "descending"], out: out)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/inApps/v2/history/\(Self.txn)", "/inApps/v2/history/\(Self.txn)"])
        let filters = [["startDate", "1735689600000"], ["endDate", "1740787200000"], ["productId", "com.example.a"], ["productId", "b c"],
                       ["productType", "AUTO_RENEWABLE"], ["productType", "CONSUMABLE"], ["sort", "DESCENDING"],
                       ["subscriptionGroupIdentifier", "21000001"], ["inAppOwnershipType", "PURCHASED"], ["revoked", "false"]]
        #expect(requests[0].query == filters)
        #expect(requests[1].query == [["revision", "standin-revision-2"]] + filters)
        // Saved byte for byte: each file is what the server sent for that page.
        for (index, request) in requests.enumerated() {
            let saved = try Data(contentsOf: out.appendingPathComponent("history-00\(index + 1).json"))
            #expect(saved == (try server.served(request)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["history-001.json", "history-002.json"])
        #expect(result.stdout.contains("history-001.json: VALID — every token verified\n  signedTransactions[0] StoreKit 2 transaction"))
        #expect(result.stdout.hasSuffix("fetched 2 pages (history-001.json … history-002.json); 3 signed items: 3 valid, 0 invalid; saved in \(out.path)\n"))
        // The saved files verify with `verify` exactly as the api command said.
        let verify = try runCLI(["verify", out.appendingPathComponent("history-002.json").path, "--root", StandInServer.root,
                                 "--environment", "sandbox", "--bundle-id", StandInServer.bundleID, "--quiet"])
        #expect(verify.status == 0 && verify.stdout == "VALID — every token verified\n")
        try expectNoSecrets(server, [result], out: out)
    }

    @Test func statusesRefundsOrderAppTransaction() throws {
        let server = try StandInServer()
        let statuses = try api(server, ["statuses", Self.txn, "--status", "1", "--status", "4"])
        #expect(statuses.status == 0, "\(statuses.stderr)")
        #expect(statuses.stdout.contains("StoreKit 2 renewal info"))
        let refunds = try api(server, ["refunds", Self.txn])
        #expect(refunds.status == 0 && refunds.stdout.contains("fetched 2 pages (refunds-001.json … refunds-002.json); 2 signed items: 2 valid"))
        let order = try api(server, ["order", "MK5TTTVWJH"])
        #expect(order.status == 0 && order.stdout.hasPrefix("order-001.json: VALID"))
        let unknownOrder = try api(server, ["order", "NOSUCHORDER"])
        #expect(unknownOrder.status == 1)
        #expect(unknownOrder.stdout.hasPrefix("order-001.json: status 1: Apple found no order with this order id"))
        let app = try api(server, ["app-transaction", Self.txn])
        #expect(app.status == 0 && app.stdout.hasPrefix("app-transaction-001.json: VALID"))
        let requests = try server.requests()
        #expect(requests.map { "\($0.method) \($0.path)" } == [
            "GET /inApps/v1/subscriptions/\(Self.txn)",
            "GET /inApps/v2/refund/lookup/\(Self.txn)", "GET /inApps/v2/refund/lookup/\(Self.txn)",
            "GET /inApps/v1/lookup/MK5TTTVWJH", "GET /inApps/v1/lookup/NOSUCHORDER",
            "GET /inApps/v1/transactions/appTransactions/\(Self.txn)",
        ])
        #expect(requests[0].query == [["status", "1"], ["status", "4"]])
        #expect(requests[1].query.isEmpty && requests[2].query == [["revision", "standin-refunds-2"]])
        try expectNoSecrets(server, [statuses, refunds, order, unknownOrder, app])
    }

    @Test func notificationHistoryPagesWithItsToken() throws {
        let server = try StandInServer()
        let result = try api(server, ["notifications", "--start", "2025-02-01T00:00:00Z", "--end", "2025-03-01T00:00:00Z",
                                      "--type", "subscribed", "--subtype", "Initial_Buy", "--only-failures"], extra: ["--timeline"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try server.requests()
        #expect(requests.count == 2 && requests.allSatisfy { $0.method == "POST" && $0.path == "/inApps/v1/notifications/history" })
        let body = #"{"startDate":1738368000000,"endDate":1740787200000,"notificationType":"SUBSCRIBED","notificationSubtype":"INITIAL_BUY","onlyFailures":true}"#
        #expect(requests.map(\.body) == [body, body])
        #expect(requests[0].headers["Content-Type"] == "application/json")
        #expect(requests[0].query.isEmpty && requests[1].query == [["paginationToken", "standin-page-2"]])
        #expect(result.stdout.contains("fetched 2 pages (notifications-001.json … notifications-002.json)"))
        #expect(result.stdout.contains("timeline of 2 documents"))
        let byTransaction = try api(server, ["notifications", "--start", "2025-02-01", "--end", "2025-03-01", "--transaction", Self.txn])
        #expect(byTransaction.status == 0)
        #expect(try server.requests()[2].body == #"{"startDate":1738368000000,"endDate":1740787200000,"transactionId":"2000000000000001"}"#)
    }

    @Test func testNotificationAndItsStatus() throws {
        let server = try StandInServer()
        let request = try api(server, ["test-notification"])
        #expect(request.status == 0)
        #expect(request.stdout == """
            test-notification-001.json: testNotificationToken ce3af791-365e-4c60-841b-1674b43c1609_1740830400000
            fetched test-notification-001.json

            """)
        let status = try api(server, ["test-notification", "--status", "ce3af791-365e-4c60-841b-1674b43c1609_1740830400000"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("test-notification-status-001.json: VALID"))
        let requests = try server.requests()
        #expect(requests.map { "\($0.method) \($0.path)" } == [
            "POST /inApps/v1/notifications/test", "GET /inApps/v1/notifications/test/ce3af791-365e-4c60-841b-1674b43c1609_1740830400000",
        ])
        #expect(requests[0].body == nil)
    }

    @Test func appleErrorIsNamedAndExitsOne() throws {
        let server = try StandInServer()
        let result = try api(server, ["transaction", "2000000000000999"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            receipt-explorer: Apple error 4040010 TransactionIdNotFoundError (a transaction identifier wasn't found): \
            "Transaction id not found." (HTTP 404 for GET /inApps/v1/transactions/2000000000000999)

            """)
        let json = try api(server, ["transaction", "2000000000000999"], extra: ["--format", "json"])
        #expect(json.status == 1)
        let line = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((line?["error"] as? [String: Any])?["code"] as? String == "apple-4040010")
    }

    @Test func retriesAfter429AndOn500() throws {
        let server = try StandInServer()
        let limited = try api(server, ["transaction", "2000000000000429"])
        #expect(limited.status == 0)
        #expect(limited.stderr == "receipt-explorer: 127.0.0.1:\(server.port) answered 429 (rate limited, Retry-After: 1): retrying in 1 s (retry 1 of 3)\n")
        let failing = try api(server, ["transaction", "2000000000000500"])
        #expect(failing.status == 0)
        #expect(failing.stderr == "receipt-explorer: 127.0.0.1:\(server.port) answered 500: retrying in 1 s (retry 1 of 3)\n")
        #expect(try server.requests().map(\.status) == [429, 200, 500, 200])
    }

    @Test func unauthorizedNamesTheLikelyCauses() throws {
        let server = try StandInServer()
        let result = try runCLI(["api", "transaction", Self.txn] + server.options() + ["--issuer", "00000000-0000-0000-0000-000000000000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("answered 401 Unauthorized to GET /inApps/v1/transactions/\(Self.txn)"))
        for cause in ["--key-id", "--issuer", "--key", "--bundle-id", "clock"] { #expect(result.stderr.contains(cause)) }
        try expectNoSecrets(server, [result])
    }

    @Test func verboseShowsClaimsNeverTheToken() throws {
        let server = try StandInServer()
        let result = try api(server, ["transaction", Self.txn], extra: ["--verbose"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("GET \(server.baseURL)/inApps/v1/transactions/\(Self.txn) (token header {\"alg\":\"ES256\",\"kid\":\"STANDIN01\",\"typ\":\"JWT\"} claims {\"iss\":"))
        try expectNoSecrets(server, [result])
    }

    @Test func verificationFailureExitsOne() throws {
        let server = try StandInServer()
        // Without the test root the items do not chain to Apple: fetched, saved, and INVALID.
        let args = ["api", "transaction", Self.txn] + server.options().dropLast(2)
        let result = try runCLI(Array(args))
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("transaction-001.json: INVALID"))
        let wrongEnvironment = try runCLI(["api", "transaction", Self.txn] + server.options().map { $0 == "sandbox" ? "production" : $0 })
        #expect(wrongEnvironment.status == 1)
        #expect(wrongEnvironment.stdout.contains("INVALID"))
    }

    @Test func credentialsFromEnvironmentVariables() throws {
        let server = try StandInServer()
        let env: [String: String?] = ["RECEIPT_EXPLORER_API_KEY": server.keyPath, "RECEIPT_EXPLORER_API_ISSUER": StandInServer.issuer,
                                      "RECEIPT_EXPLORER_API_BUNDLE_ID": StandInServer.bundleID, "RECEIPT_EXPLORER_API_KEY_ID": "STANDIN01"]
        let result = try runCLI(["api", "transaction", Self.txn, "--environment", "SANDBOX", "--base-url", server.baseURL,
                                 "--root", StandInServer.root], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func usageErrors() throws {
        let missing = try runCLI(["api", "transaction", Self.txn, "--key", "k.p8"])
        #expect(missing.status == 2 && missing.stderr.contains("--environment is required: production or sandbox"))
        let server = try StandInServer()
        let badType = try api(server, ["history", Self.txn, "--product-type", "subscription"])
        #expect(badType.status == 2)
        #expect(badType.stderr.contains("--product-type: 'subscription' is not one of AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE, NON_CONSUMABLE"))
        let badID = try api(server, ["transaction", "12/../x"])
        #expect(badID.status == 2 && badID.stderr.contains("is not a transaction id"))
        let noKeyID = try runCLI(["api", "transaction", Self.txn, "--key", StandInServer.root, "--issuer", "a", "--bundle-id", "b",
                                  "--environment", "sandbox", "--base-url", server.baseURL])
        #expect(noKeyID.status == 2 && noKeyID.stderr.contains("--key"))
        #expect(try server.requests().isEmpty, "no request is sent for a usage error")
    }

    @Test func hostileServers() throws {
        let server = try StandInServer()
        let host = "127.0.0.1:\(server.port)"
        let big = try api(server, ["transaction", Self.txn], path: "/hostile/big")
        #expect(big.status == 2 && big.stderr.contains("\(host) sent more than 16 MiB for GET /inApps/v1/transactions/\(Self.txn): stopped"))
        let notJSON = try api(server, ["transaction", Self.txn], path: "/hostile/notjson")
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr.contains("\(host) answered 200 to GET /inApps/v1/transactions/\(Self.txn) with 45 bytes that are not a JSON object (Content-Type text/html)"))
        let redirect = try api(server, ["transaction", Self.txn], path: "/hostile/redirect")
        #expect(redirect.status == 2 && redirect.stderr.contains("answered 302, a redirect to /hostile/redirect/inApps/v1/transactions/\(Self.txn)"))
        let started = Date()
        let stall = try api(server, ["transaction", Self.txn], path: "/hostile/stall", extra: ["--timeout", "2"])
        #expect(stall.status == 2 && stall.stderr.contains("\(host) did not answer GET /inApps/v1/transactions/\(Self.txn) within 2 s (--timeout)"))
        #expect(Date().timeIntervalSince(started) < 20)
        let loop = try api(server, ["history", Self.txn], path: "/hostile/loop")
        #expect(loop.status == 2 && loop.stderr.contains("gave the same revision twice: stopped after page 2"))
        server.stop()
        let refused = try api(server, ["transaction", Self.txn])
        #expect(refused.status == 2 && refused.stderr.hasPrefix("receipt-explorer: cannot reach \(host): "))
        for result in [big, notJSON, redirect, stall, loop, refused] { #expect(!result.stderr.contains("Fatal error")) }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/maps"), "reads the loader's trace (Linux)"))
    func libcurlIsLoadedOnlyByApiCommands() throws {
        // LD_DEBUG=files lists every shared object the process opens, dlopen included.
        let version = try runCLI(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(version.status == 0 && !version.stderr.contains("libcurl"))
        let dump = try runCLI(["dump", Paths.samples.appendingPathComponent("typical.receipt").path], environment: ["LD_DEBUG": "files"])
        #expect(!dump.stderr.contains("libcurl"))
        let server = try StandInServer()
        let fetched = try runCLI(["api", "transaction", Self.txn] + server.options(), environment: ["LD_DEBUG": "files"])
        #expect(fetched.status == 0 && fetched.stderr.contains("libcurl"))
    }

    /// docs/manual/api.md's worked example, run as shown: its `export` lines and its `api` command
    /// (the stand-in's port in place of the page's), in a directory that sees the samples, print
    /// exactly the output the page shows and save what it says.
    @Test func theManualsWorkedExampleRunsAsShown() throws {
        let page = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/api.md"), encoding: .utf8)
        let section = try #require(page.range(of: "## A worked example"))
        let open = try #require(page.range(of: "```console\n", range: section.upperBound..<page.endIndex))
        let close = try #require(page.range(of: "\n```", range: open.upperBound..<page.endIndex))
        var lines = page[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // `$ ` lines are typed (a trailing backslash continues one); the lines after the last are its output.
        var commands: [String] = []
        var lastCommandEnd = 0
        var index = 0
        while index < lines.count {
            guard lines[index].hasPrefix("$ ") else { index += 1; continue }
            var command = String(lines[index].dropFirst(2))
            while command.hasSuffix("\\"), index + 1 < lines.count {
                index += 1
                command = String(command.dropLast()) + lines[index].trimmingCharacters(in: .whitespaces)
            }
            commands.append(command)
            index += 1
            lastCommandEnd = index
        }
        let expected = lines[lastCommandEnd...].joined(separator: "\n") + "\n"
        lines.removeAll()
        var environment: [String: String?] = [:]
        for export in commands where export.hasPrefix("export ") {
            for assignment in export.dropFirst("export ".count).split(separator: " ") {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                environment[parts[0]] = parts[1]
            }
        }
        let apiCommand = try #require(commands.last)
        #expect(apiCommand.hasPrefix("receipt-explorer api history "))
        let server = try StandInServer()
        // The page's stand-in paths and port are an example run's: this run's server has its own.
        environment["RECEIPT_EXPLORER_API_KEY"] = server.keyPath
        #expect(environment["RECEIPT_EXPLORER_API_ISSUER"] == StandInServer.issuer)
        #expect(environment["RECEIPT_EXPLORER_API_BUNDLE_ID"] == StandInServer.bundleID)
        let arguments = apiCommand.split(separator: " ").dropFirst().map { String($0).replacingOccurrences(of: "http://127.0.0.1:40123", with: server.baseURL) }
        let directory = freshDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("samples"), withDestinationURL: Paths.samples)
        let binary = try #require(cliBinary)
        let result = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(directory.path)' && exec \"$0\" \"$@\"", binary.path] + arguments,
                                    environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("fetched").path).sorted()
                == ["history-001.json", "history-002.json"])
    }
}
