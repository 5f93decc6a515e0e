import ASN1Lenient
import ByteText
import ReceiptKit
import DocumentCore

extension ExplorerAdditions {
    /// What a document read as a receipt adds to the explorer: its purchase table, summary, the
    /// verification steps and verdict, each node's meaning and the fields `/` finds; nil when no
    /// receipt was read (no container found). Costs O(purchases + fields): per-node meanings are
    /// computed on demand for the rows on screen.
    init?(receiptOf document: Document) {
        guard let analysis = document.receipt, analysis.container != nil || analysis.receipt != nil else { return nil }
        let tree = analysis.tree
        let receipt = analysis.receipt
        let container = analysis.container
        let separate = analysis.payloadTree != nil
        let rows = ReceiptPurchaseRows(analysis)
        func inputNode(_ node: Int?) -> Int? { rows.inputNode(node) }
        let purchases = PurchaseRows(count: rows.count) { rows.row($0) }  // none without a receipt

        var summary: [SummaryLine] = []
        if let receipt {
            func line(_ label: String, _ value: String?, _ field: ReceiptField?) {
                summary.append(SummaryLine(label: label, value: value.map { TerminalSafe.escape($0) } ?? "–",
                                           node: inputNode(field?.primaryNode)))
            }
            func date(_ d: ReceiptDate?) -> String? {
                guard let d else { return nil }
                let utc = ReceiptDate(epochMilliseconds: d.epochMilliseconds).text
                return d.text == utc ? d.text : "\(d.text) (\(utc))"
            }
            line("bundle id", receipt.bundleID, receipt.field(2))
            line("app version", receipt.appVersion, receipt.field(3))
            line("original version", receipt.originalAppVersion, receipt.field(19))
            line("environment", receipt.receiptType, receipt.field(0))
            line("app item id", receipt.appItemID, receipt.field(1))
            line("created", date(receipt.creationDate), receipt.field(12))
            line("receipt date", date(receipt.receiptDate), receipt.field(8))
            line("first purchased", date(receipt.originalPurchaseDate), receipt.field(18))
            line("expires", date(receipt.expirationDate), receipt.field(21))
            line("age rating", receipt.ageRating, receipt.field(10))
            summary.append(SummaryLine(label: "in-app purchases", value: "\(receipt.inApp.count)"))
            // App-level only: counting inside every purchase would cost O(fields) at load.
            let unlisted = receipt.fields.unlistedCount
            if unlisted > 0 {
                summary.append(SummaryLine(label: "unlisted attributes", value: "\(unlisted) at the top level (Apple-private, kept)"))
            }
        } else {
            summary.append(SummaryLine(label: "payload", value: "not decoded (see the diagnostics)"))
        }
        let active = analysis.activeSubscriptions().map { p -> String in
            var s = TerminalSafe.escape(p.productID ?? "?")
            if let e = p.expiresDate { s += " until " + TerminalSafe.escape(e.text) }
            return s
        }

        var expand: [Int] = []
        var initial: Int?
        if let receipt, !separate, receipt.payloadNode >= 0, receipt.payloadNode < tree.count {
            expand.append(receipt.payloadNode)
            initial = receipt.payloadNode
        } else if let container {
            for chunk in container.payloadChunks { expand.append(chunk) }
            initial = container.payloadChunks.first ?? container.payloadString
            if let p = container.payloadString { expand.append(p) }
        }

        let links = analysis.links
        let provider: (@Sendable (Int) -> NodeMeaning?)?
        if let receipt, !separate {
            provider = { node in ExplorerAdditions.meaning(of: node, receipt: receipt, links: links, container: container, tree: tree) }
        } else {
            provider = { node in container?.role(of: node).map { NodeMeaning(label: TerminalSafe.escape($0)) } }
        }
        // The steps and verdict in the one verification model's words (what `verify` prints).
        var report = VerificationReport(receipt: analysis, kind: document.kind.id, label: document.kind.summary, note: document.note,
                                        withReceiptFacts: false)
        report.settleVerdict()
        self.init(purchases: purchases, summary: summary, steps: report.steps, activeSubscriptions: active, defaultExpanded: expand,
                  initialSelection: initial)
        setVerdict(report)
        self.meaningProvider = provider
        (summaryTitle, fieldLabel, partLabel) = ("Receipt", "receipt field", "receipt")
        if let receipt, !separate {
            self.fieldSearch = ReceiptSearchEntries(receipt: receipt)
        }
    }

    /// The meaning of one node: container roles, attribute labels, decoded values. O(depth).
    static func meaning(of node: Int, receipt: Receipt, links: ReceiptLinks, container: ContainerInfo?, tree: Tree) -> NodeMeaning? {
        guard let location = links.location(of: node), let field = receipt.field(at: location) else {
            if node == receipt.payloadNode {
                return NodeMeaning(label: ReceiptNames.payloadName(attributes: receipt.fields.count),
                                   purpose: ReceiptNames.payloadMeaning)
            }
            return container?.role(of: node).map { NodeMeaning(label: TerminalSafe.escape($0)) }
        }
        let spec = field.spec
        let name = spec?.name ?? "unlisted type \(field.type)"
        let label = ReceiptSchema.label(type: field.type, level: field.level)
        var value: String
        var raw: String?
        var parsed: String?
        switch field.value {
        case .string(let s):
            if let inner = field.innerNode, inner < tree.count, tree.nodes[inner].isUniversal(12) {
                // From the bytes, so invalid UTF-8 shows as `\xc3` rather than a replacement character.
                value = "\"" + TerminalSafe.escape(utf8: tree.content(of: inner).prefix(1024)) + "\""
            } else {
                value = "\"" + TerminalSafe.escape(s) + "\""
            }
        case .integer(let v): value = String(v)
        case .bigInteger(let s): value = s
        case .date(let d):
            raw = "\"" + TerminalSafe.escape(d.text) + "\""
            parsed = ReceiptDate(epochMilliseconds: d.epochMilliseconds).text
            value = raw!
        case .absentDate:
            value = "(empty: no date)"
            raw = "\"\""
        case .bytes:
            let bytes = receipt.bytes[field.valueRange]
            value = Hex.preview(bytes, maxBytes: 12) + " (\(bytes.count) bytes)"
        case .inAppPurchase(let i):
            let product = i < receipt.inApp.count ? receipt.inApp[i].productID.map { TerminalSafe.escape($0) } ?? "?" : "?"
            value = "in-app purchase #\(i + 1) · \(product)"
        case .invalid(let why):
            value = "invalid: " + TerminalSafe.escape(why)
        }
        // The schema's own sentence (constant text, not input; guarded again when drawn).
        let purpose = ReceiptNames.meaning(location)
        // The part's name is the one `dump` and `explain` print (`ReceiptNames`); the row adds the value.
        let partName = ReceiptNames.name(location)
        let line: String
        switch location.part {
        case .attribute, .innerValue:
            if case .inAppPurchase = field.value { line = location.part == .attribute ? "\(label) · \(value)" : value } else { line = "\(partName) = \(value)" }
        case .type, .version, .value: line = partName
        case .insideValue:
            if location.level == .inApp, location.inAppIndex != nil, field.type == 17 { line = value } else { line = partName }
        }
        let purchasePrefix = location.level == .inApp ? location.inAppIndex.map { "in-app purchase #\($0 + 1) · " } ?? "" : ""
        return NodeMeaning(label: line, fieldName: purchasePrefix + "\(name) (\(label))", purpose: purpose, decodedValue: value,
                           rawDate: raw, parsedDate: parsed)
    }
}

/// Every format whose documents are read as receipts (a certificate or other ASN.1 only with
/// `ReceiptReading.always`) adds the receipt's views when a receipt was read.
extension ReadsAsReceipt where Self: DocumentFormat {
    public func explorerAdditions(of document: Document) -> ExplorerAdditions? { ExplorerAdditions(receiptOf: document) }
}

/// A receipt's purchase table, each row made from its purchase when read.
private struct ReceiptPurchaseRows: Sendable {
    let analysis: ReceiptAnalysis
    /// The purchases with a row, when some have none (an attribute outside the receipt's tree).
    private let kept: [Int32]?
    let count: Int

    init(_ analysis: ReceiptAnalysis) {
        self.analysis = analysis
        let purchases = analysis.receipt?.inApp ?? []
        var kept: [Int32] = []
        var all = true
        for (i, p) in purchases.enumerated() {
            if Self.inputNode(p.attributeNode, analysis) != nil { kept.append(Int32(i)) } else { all = false }
        }
        self.kept = all ? nil : kept
        count = all ? purchases.count : kept.count
    }

    /// When the payload was reassembled from several chunks, receipt node indices point into a
    /// second tree: map them to the deepest input node holding the same bytes.
    private static func inputNode(_ node: Int?, _ analysis: ReceiptAnalysis) -> Int? {
        let receiptTree = analysis.receiptTree
        guard let node, node >= 0, node < receiptTree.count else { return nil }
        guard analysis.payloadTree != nil else { return node }
        let offset = analysis.fileRange(receiptTree.nodes[node].byteRange).lowerBound
        return analysis.tree.nodes.deepestNode(containing: offset)
    }

    func inputNode(_ node: Int?) -> Int? { Self.inputNode(node, analysis) }

    func row(_ position: Int) -> PurchaseRow {
        let p = analysis.receipt!.inApp[kept.map { Int($0[position]) } ?? position]
        let separate = analysis.payloadTree != nil
        let attribute = inputNode(p.attributeNode)!
        let node = inputNode(p.setNode) ?? attribute
        let end = separate ? node + 1 : Int(analysis.tree.nodes[attribute].subtreeEnd)
        // Space-separated, built without an array: most purchases have no flag at all.
        var flags = ""
        func flag(_ on: Bool, _ word: String) {
            guard on else { return }
            flags += flags.isEmpty ? word : " " + word
        }
        flag(p.isAutoRenewable, "sub")
        flag(p.isTrialPeriod == true, "trial")
        flag(p.isInIntroOfferPeriod == true, "intro")
        flag(p.cancellationDate != nil, "refunded")
        flag(!p.isComplete, "incomplete")
        return PurchaseRow(
            number: p.index + 1, target: .node(NodeID(.file, node), members: (separate ? node : attribute)..<end),
            productID: TerminalSafe.escape(p.productID ?? "–"),
            transactionID: TerminalSafe.escape(p.transactionID ?? "–"),
            originalTransactionID: TerminalSafe.escape(p.originalTransactionID ?? "–"),
            purchaseDate: TerminalSafe.escape(p.purchaseDate?.text ?? "–"),
            expiresDate: TerminalSafe.escape(p.expiresDate?.text ?? ""),
            quantity: p.quantity.map(String.init) ?? "–",
            flags: flags)
    }
}
