import ASN1Lenient
import Testing
@testable import JSONLenient

/// The JSON reader's node budget (`JSONParser.parse(_:maxNodes:)`, by default one node per 32
/// input bytes plus 131,072), with the ASN.1 parser's contract: at the budget the reader stops
/// building nodes, reports `too-many-elements` once where it stopped (range to the end of the
/// input), closes every open container at its real closing bracket and checks nothing after.
@Suite struct JSONNodeBudgetTests {
    static func parse(_ text: String, maxNodes: Int? = nil, maxDiagnosticsPerCode: Int = 10_000) -> JSONTree {
        JSONParser.parse(Array(text.utf8), maxNodes: maxNodes, maxDiagnosticsPerCode: maxDiagnosticsPerCode)
    }

    static let budgetCode = ParserCode.tooManyElements.code

    @Test func exactlyAtTheBudgetEverythingIsRead() {
        let tree = Self.parse("[0,1,2]", maxNodes: 4)
        #expect(tree.count == 4)
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics)")
        #expect(tree.nodes.map(\.range) == [0..<7, 1..<2, 3..<4, 5..<6])
    }

    @Test func oneOverTheBudgetTheRestIsLeftUnread() throws {
        //                         0123456
        let tree = Self.parse("[0,1,2]", maxNodes: 3)
        #expect(tree.nodes.map(\.kind) == [.array, .number, .number])
        #expect(tree.nodes.map(\.range) == [0..<7, 1..<2, 3..<4])
        #expect(tree[0].subtreeEnd == 3)
        let diagnostic = try #require(tree.diagnostics.first)
        #expect(tree.diagnostics.count == 1)
        #expect(diagnostic.code == Self.budgetCode)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.range == 5..<7)
        #expect(diagnostic.node == NodeIndex(0))
        #expect(diagnostic.message == "3 JSON values and members built, the limit set for this parse; the remaining 2 byte(s) from offset 5 are not read and not checked")
    }

    /// Every open container ends at its real closing bracket; its unread content and the error's
    /// range together cover the input.
    @Test func eachOpenContainerEndsAtItsOwnBracket() {
        //                     0         1
        //                     01234567890123456
        let text = #"{"a":1,"b":[2,3]}"#
        let tree = Self.parse(text, maxNodes: 6)
        #expect(tree.nodes.map(\.kind) == [.object, .member, .number, .member, .array, .number])
        #expect(tree.nodes.map(\.range) == [0..<17, 1..<6, 5..<6, 7..<16, 11..<16, 12..<13])
        #expect(tree.nodes.map(\.subtreeEnd) == [6, 3, 3, 6, 6, 6])
        #expect(tree.diagnostics.map(\.code) == [Self.budgetCode])
        #expect(tree.diagnostics.first?.range == 14..<17)
        #expect(tree.diagnostics.first?.node == NodeIndex(4))
        #expect(tree.lookup(["b"]) == 4 && tree.children(of: 4) == [5])
    }

    @Test func aMemberIsNotStartedPastTheBudget() {
        let tree = Self.parse(#"{"a":1,"b":[2,3]}"#, maxNodes: 3)
        #expect(tree.nodes.map(\.range) == [0..<17, 1..<6, 5..<6])
        #expect(tree.diagnostics.first?.range == 7..<17)
        #expect(tree.diagnostics.first?.node == NodeIndex(0))
        #expect(tree.member("b", in: 0) == nil)
    }

    @Test func aMemberWhoseValueIsPastTheBudgetHasNoValue() {
        let tree = Self.parse(#"{"a": 1}"#, maxNodes: 2)
        #expect(tree.nodes.map(\.range) == [0..<8, 1..<6])
        #expect(tree.key(ofMember: 1) == "a" && tree.value(ofMember: 1) == nil)
        #expect(tree.diagnostics.first?.range == 6..<8)
        #expect(tree.diagnostics.first?.node == NodeIndex(1))
    }

    /// Nothing after the stop is checked: no defect, no missing bracket, no trailing data.
    @Test func theUnreadRestIsNotChecked() {
        let defects = Self.parse(#"[0, {"a" 1 x}, tru, "\q"] [2"#, maxNodes: 2)
        #expect(defects.diagnostics.map(\.code) == [Self.budgetCode])
        #expect(defects.diagnostics.first?.range == 4..<28)
        #expect(defects[0].range == 0..<25)
        let unclosed = Self.parse("[0,[1,[2", maxNodes: 3)
        #expect(unclosed.diagnostics.map(\.code) == [Self.budgetCode])
        #expect(unclosed.nodes.map(\.range) == [0..<8, 1..<2, 3..<8])
    }

    @Test func aBudgetOfZeroReadsNothing() {
        let tree = Self.parse("[]", maxNodes: 0)
        #expect(tree.count == 0 && tree.root == nil)
        #expect(tree.diagnostics.map(\.range) == [0..<2])
        #expect(tree.diagnostics.first?.node == nil)
    }

    /// The default: one node per 32 bytes plus 131,072, and nothing past 1 GiB (offsets are 30 bits).
    @Test func theDefaultBudgetFollowsTheInputSize() throws {
        #expect(JSONParser.nodeBudget(inputBytes: 0) == 131_072)
        #expect(JSONParser.nodeBudget(inputBytes: 5_000_000) == 156_250 + 131_072)
        #expect(JSONParser.nodeBudget(inputBytes: 1 << 30) == 0)
        // [0,0,…,0]: 300,000 zeros in 600,001 bytes, one node per 2 bytes.
        let zeros = 300_000
        let tree = JSONParser.parse(Array(("[" + String(repeating: "0,", count: zeros - 1) + "0]").utf8))
        let budget = 600_001 / 32 + 131_072
        #expect(budget == 149_822)
        #expect(tree.count == budget)
        let stop = 1 + 2 * (budget - 1)
        let diagnostic = try #require(tree.diagnostics.first)
        #expect(tree.diagnostics.count == 1)
        #expect(diagnostic.range == stop..<600_001)
        #expect(diagnostic.message == "149822 JSON values and members built, the most for 600001 bytes: one per 32 bytes plus 131072; the remaining 300358 byte(s) from offset 299643 are not read and not checked")
        #expect(tree[0].range == 0..<600_001)
    }

    /// At most `maxDiagnosticsPerCode` of each code; then one summary pinned to the first left out.
    @Test func findingsAreCappedPerCode() {
        //                         01234567
        let tree = Self.parse("[0,,,,]", maxDiagnosticsPerCode: 2)
        #expect(tree.diagnostics.map(\.code.rawValue) == ["json-unexpected-character", "json-unexpected-character", "json-trailing-comma", "json-unexpected-character"])
        #expect(tree.diagnostics.map(\.offset) == [3, 4, 5, 5])
        #expect(tree.diagnostics.last?.message == "1 more json-unexpected-character diagnostic(s) not listed (at most 2 per code); the first not listed: character ',' cannot start a value")
    }

    /// 28 bytes a node and 8 a string entry (72 and 24 before the budget): what the budget's
    /// "2× the input" assumes.
    @Test func nodesAndStringEntriesStaySmall() {
        #expect(MemoryLayout<JSONNode>.stride == 28)
        #expect(MemoryLayout<JSONStringTable.Entry>.stride == 8)
    }

    /// Random budgets over a document with every kind of value: pre-order and ranges intact,
    /// the error (if any) last among the reader's own and ranging to the end.
    @Test func everyBudgetKeepsTheInvariants() {
        let text = #"{"a":[1,-2.5e3,"x\u00e9\/",true,null],"b":{"c":"d","c":[[],{}]},"e":""} "#
        let bytes = Array(text.utf8)
        let full = JSONParser.parse(bytes)
        for budget in 0...full.count {
            let tree = JSONParser.parse(bytes, maxNodes: budget)
            let over = tree.diagnostics.filter { $0.code == Self.budgetCode }
            #expect(over.count == (budget < full.count ? 1 : 0), "budget \(budget)")
            #expect(tree.count == min(budget, full.count), "budget \(budget)")
            if let over = over.first { #expect(over.range.upperBound == bytes.count, "budget \(budget)") }
            for (index, node) in tree.nodes.enumerated() {
                #expect(node.kind == full[index].kind && node.parent == full[index].parent && node.start == full[index].start, "budget \(budget) node \(index)")
                #expect(node.range == full[index].range || full[index].kind == .member, "budget \(budget) node \(index)")
                #expect(node.subtreeEnd > index && node.subtreeEnd <= tree.count)
            }
        }
    }

    /// The arenas are reserved for a node per 2 input bytes, so a large tree never regrows; a tree
    /// that used under half its room is kept in exact room (a token's header, 300 bytes a node,
    /// held 28 KB unused, 280 MB over a 10,000-token history). One that filled it keeps it.
    @Test func roomTheInputDidNotUseIsGivenBack() {
        let long = String(repeating: "MIIC", count: 1_000)
        let sparse = Self.parse(#"{"alg":"ES256","x5c":["\#(long)","\#(long)","\#(long)"]}"#)
        #expect(sparse.count == 8)
        #expect(sparse.nodes.capacity <= 2 * sparse.count + 64)
        #expect(sparse.table.entries.capacity <= 2 * sparse.table.entries.count + 64)
        let dense = Self.parse("[" + Array(repeating: "0", count: 5_000).joined(separator: ",") + "]")
        #expect(dense.count == 5_001)
        #expect(dense.nodes.capacity >= dense.count)
    }
}
