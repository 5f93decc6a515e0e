import ASN1Lenient
import JSONLenient
import ReceiptKit
import ByteText
import TextLoader
import DocumentCore
import Platform

/// One file given to `redact`: its bytes as stored and as the loader decoded them.
public struct RedactInput: Sendable {
    public var raw: [UInt8]
    public var loaded: LoadedInput

    public init(raw: [UInt8], loaded: LoadedInput) {
        self.raw = raw
        self.loaded = loaded
    }

    /// The text and its reading, taken out (the input is left empty): handed on this way, each
    /// step letting go of what it has used, because a `consume` of the input left a copy alive
    /// through the copy's check (67 MB of a 50 MB receipt in a log line; issue 32).
    mutating func handOver() -> (raw: [UInt8], loaded: LoadedInput) {
        defer { self = RedactInput(raw: [], loaded: LoadedInput(bytes: [], name: loaded.name, encoding: loaded.encoding, note: "")) }
        return (raw, loaded)
    }
}

/// A value replaced at one place, for the mapping file.
public struct RedactOccurrence: Sendable {
    public var file: Int
    public var field: RedactField
    public var place: String
    /// The layer's name and the offset there.
    public var layer: String
    public var offset: Int
    public var isMention: Bool
}

/// The outcome for one file.
public struct RedactedCopy: Sendable {
    public var name: String
    /// The copy, in the input's text form; nil when the file could not be redacted (`failure`).
    public var bytes: [UInt8]?
    public var failure: String?
    /// What the input is ("a PKCS#7 App Store receipt"), from the opened original.
    public var summary: String
    // `failure`, `notReplaced` and `signatures` are terminal-safe as built (every part taken from
    // the input is escaped where it is inserted): print them as they are.
    public var inputHasErrors: Bool
    /// Values replaced per field (mentions inside other values counted apart).
    public var replaced: [RedactField: Int] = [:]
    public var mentions = 0
    /// Values of a redacted field left as they are, with why.
    public var notReplaced: [String] = []
    /// Which signatures the changes break, and why.
    public var signatures: [String] = []
    /// The shape both the original and the copy have (checked).
    public var nodeCount = 0
    public var layerCount = 0
    public var diagnosticCount = 0
}

/// The outcome of one run: every copy, and the table that made them consistent.
public struct RedactRun: Sendable {
    public var copies: [RedactedCopy]
    /// Without `RedactOptions.mapping`, the stand-ins alone (`StandIns.keepsOriginals` is false).
    public var standIns: StandIns
    public var occurrences: [RedactedValue: [RedactOccurrence]]
}

/// `redact`: copies of receipts and StoreKit documents with every identifying value replaced by a
/// stand-in of the same length and class, the same stand-in for the same value in every file of
/// the run, written back in place so that the copy parses to the same tree, offsets and
/// diagnostics as the original (checked on every copy by re-opening it).
public enum Redactor {
    /// Decode-only: the check compares parses; verification would only say what `signatures` says.
    static let openOptions = AnalysisOptions(validate: false)

    /// Each input is let go (by the run; a caller that keeps its own reference keeps it) once its
    /// copy's text is made, before the copy is opened and checked: a 50 MB history and its copy
    /// were 96 MiB at the check's peak (issue 32).
    public static func run(_ inputs: consuming [RedactInput], options: RedactOptions) throws -> RedactRun {
        let fields = options.fields
        var pending: [RedactInput?] = consume inputs
        // The text around each input's data is read first: when the data is base64 written the
        // regular way, the text is kept as what is around it and its layout, and let go before the
        // document is opened (the paste's record of it too: no document reads it).
        var wrappers = pending.map { WrapperText($0!, fields: fields) }
        for i in pending.indices where !wrappers[i].needsInputText {
            pending[i]!.raw = []
            pending[i]!.loaded.origin = pending[i]!.loaded.origin?.withoutText
        }
        var documents: [Document?] = pending.map { Document.open($0!.loaded, options: openOptions) }
        var collectors = documents.map { RedactCollector.collect($0!, fields: fields) }
        collectMentions(&collectors, &wrappers)
        // The text around the data is read: only its targets are kept.
        for i in wrappers.indices { wrappers[i].letTextGo() }
        // What is kept of each document once its values are found: the collectors (which hold the
        // documents) go, so that each document is let go before its copy is opened (issue 32).
        // The targets kept in an array of their own size (the collector's grew by doubling), which
        // goes before the stand-ins are drawn.
        var plans = collectors.map {
            RedactPlan(targets: $0.targets.finished(), notReplaced: $0.notReplaced,
                       layerNames: PackedLayerNames($0.document, keeping: RedactPlan.written($0.targets)),
                       layers: RedactPlan.valueLayers($0))
        }
        collectors.removeAll()
        // What went (the collectors, the mention table) is handed back before the rewrites' copies are made.
        FreedHeap.returnToSystem()
        // Each document is brought down to what its rewrite needs (the bytes of the layers a write
        // reaches, its tokens, its shape) before the stand-ins are drawn: the table was drawn beside
        // a 50 MB receipt's whole tree, 7 MiB above the bound (issue 32).
        var prepared: [Prepared?] = pending.indices.map { i in
            let made = prepare(pending[i]!, document: documents[i].take()!, plan: plans[i], wrapper: wrappers[i])
            // The values are read from the rewrite's copies of their layers: the document's own go with it.
            if let rewrite = made.rewrite { plans[i].readValues(from: rewrite) }
            return made
        }
        documents.removeAll()
        // The values and their set go before the files are rewritten (a string a value: 4 MB for
        // 20,000 purchases; issue 32).
        var standIns = try StandIns(key: options.key, values: originals(plans, wrappers))
        for i in plans.indices { plans[i].resolve(standIns) }
        for i in wrappers.indices { wrappers[i].resolve(standIns) }
        // Every value is now a place in the table: without a mapping, which alone names originals,
        // the rewrites and the checks need the stand-ins only.
        if !options.mapping { standIns.letOriginalsGo() }
        // What went (the documents, the collectors, the values' sets) is handed back before the
        // rewrites build on it.
        FreedHeap.returnToSystem()
        var copies: [RedactedCopy] = []
        var occurrences: [RedactedValue: [RedactOccurrence]] = [:]
        for index in pending.indices {
            var (raw, loaded) = pending[index]!.handOver()
            pending[index] = nil
            let rewritten = rewrite(prepared[index].take()!, plan: plans[index], standIns: standIns)
            let expected = plans[index].expectedStandIns()
            if !options.mapping { plans[index].letTargetsGo() }
            // The rewrite's layers are gone: their pages are handed back before the copy is opened.
            FreedHeap.returnToSystem()
            let copy = finish(rewritten, raw: &raw, loaded: &loaded, expected: expected, wrapper: wrappers[index], standIns: standIns, fields: fields)
            if copy.bytes != nil && options.mapping {
                let plan = plans[index]
                for (k, target) in plan.targets.enumerated() {
                    guard let value = plan.standInIndex(k) else { continue }  // no stand-in: not in the mapping
                    occurrences[standIns.original(at: value), default: []].append(RedactOccurrence(
                        file: index, field: target.field, place: target.place, layer: plan.layerNames[target.layer.index],
                        offset: target.range.lowerBound, isMention: target.isMention))
                }
                for target in wrappers[index].targets {
                    occurrences[.text(target.original), default: []].append(RedactOccurrence(
                        file: index, field: target.field, place: target.place, layer: "text around the data",
                        offset: target.range.lowerBound, isMention: target.isMention))
                }
            }
            copies.append(copy)
        }
        return RedactRun(copies: copies, standIns: standIns, occurrences: occurrences)
    }

    /// Whether `input`'s copy is made from its data's layout rather than written into its text.
    package static func writesFromLayout(_ input: RedactInput) -> Bool { !WrapperText(input, fields: []).needsInputText }

    /// Every occurrence of a run value long enough to look for inside other values
    /// (`JSONPath.minimumMention`) in every file, with the field of the value it repeats.
    static func collectMentions(_ collectors: inout [RedactCollector], _ wrappers: inout [WrapperText]) {
        let found = findMentions(collectors, &wrappers)
        for (i, mentions) in found.enumerated() { collectors[i].targets.append(contentsOf: mentions) }
    }

    /// Each collector's mentions, and the wrappers' added to them; the table goes on return, before
    /// the mentions are added to the targets (the targets' list then grows beside less; issue 32).
    static func findMentions(_ collectors: [RedactCollector], _ wrappers: inout [WrapperText]) -> [RedactTargetList] {
        // A value found more than once keeps the field of its last place in the data, or else of
        // its first around the data.
        var mentionable = MentionTable(capacity: collectors.reduce(0) { $0 + $1.targets.count } + wrappers.reduce(0) { $0 + $1.targets.count })
        for collector in collectors {
            for target in collector.targets {
                if case .text(let text) = collector.original(target) { mentionable.add(text, target.field, overriding: true) }
            }
        }
        for wrapper in wrappers {
            for target in wrapper.targets { mentionable.add(target.original, target.field, overriding: false) }
        }
        mentionable.finish()
        for i in wrappers.indices { wrappers[i].collectMentions(of: mentionable) }
        return collectors.map { $0.mentions(of: mentionable) }
    }

    /// The run's values, from every file.
    static func originals(_ plans: [RedactPlan], _ wrappers: [WrapperText]) -> StandIns.Values {
        var originals = StandIns.Values()
        for wrapper in wrappers { for target in wrapper.targets { originals.insert(.text(target.original)) } }
        for plan in plans { for target in plan.targets { originals.insert(plan.original(target)) } }
        return originals
    }

    /// What `redact` needs of a document's collector, without the document.
    struct RedactPlan {
        var targets: RedactTargetList
        var notReplaced: [String]
        /// The names of the layers the targets are in, for the mapping.
        var layerNames: PackedLayerNames
        /// Until the stand-ins are drawn: the original's layers' bytes (the file's are the input's
        /// own), where the targets' values are read, from the rewrite's copies once it is prepared
        /// (`readValues`); the trees and the model go with the document.
        var layers: [ByteWindow]
        /// Once they are drawn (`resolve`): each target's value as its place in the run's table,
        /// -1 for one with no stand-in (an empty value). The layers then go, and with them the last
        /// hold on the input's bytes but the input itself (4 bytes a target; issue 32).
        private var standIns: [Int32] = []

        init(targets: RedactTargetList, notReplaced: [String], layerNames: PackedLayerNames, layers: [ByteWindow]) {
            self.targets = targets
            self.notReplaced = notReplaced
            self.layerNames = layerNames
            self.layers = layers
        }

        /// Before `resolve`.
        func original(_ target: RedactTarget) -> RedactedValue { target.original(in: layers[target.layer.index]) }

        /// Reads the values from `rewrite`'s layers (the same bytes, before any write) instead of
        /// the document's, which can then go with it.
        mutating func readValues(from rewrite: LayerRewrite) { layers = rewrite.layers.map(\.bytes) }

        mutating func resolve(_ table: StandIns) {
            standIns = targets.map { target in table.index(of: original(target)).map { Int32($0) } ?? -1 }
            layers = []
        }

        /// Target k's value's place in the run's table (`StandIns.standIn(at:)`), after `resolve`.
        func standInIndex(_ k: Int) -> Int? { standIns[k] < 0 ? nil : Int(standIns[k]) }

        /// What the copy's check compares, after `resolve`: the places in the run's table of the
        /// values that are not mentions, in order (-1: no stand-in).
        func expectedStandIns() -> [Int32] { targets.indices.filter { !targets.isMention($0) }.map { standIns[$0] } }

        /// Without a mapping, once the copy is made: the check needs `expectedStandIns` only.
        mutating func letTargetsGo() {
            targets = RedactTargetList()
            standIns = []
        }

        /// The layers the targets are in.
        static func written(_ targets: RedactTargetList) -> Set<Int> { Set(targets.map(\.layer.index)) }

        /// The bytes of each layer a target's value is read from; empty for the others (a token's
        /// 5 MB payload with no value in it would be kept through the copy's check).
        static func valueLayers(_ collector: RedactCollector) -> [ByteWindow] {
            let read = written(collector.targets)
            return collector.document.layers.map { read.contains($0.id.index) ? $0.bytes : [] }
        }
    }

    /// What a copy's rewrite needs of its document: the report so far, the bytes of the layers a
    /// write reaches (nil when the document cannot be redacted: `copy.failure`), what its signatures
    /// cover, and the original's shape, for the check.
    struct Prepared {
        var copy: RedactedCopy
        var rewrite: LayerRewrite?
        var signed: [RedactionParts.SignedLayers]
        var shape: DocumentShape
    }

    /// A copy's report so far, the file's new bytes (nil when it cannot be made: `copy.failure`) and the
    /// original's shape: all `finish` needs.
    struct Rewritten {
        var copy: RedactedCopy
        var file: [UInt8]?
        var shape: DocumentShape
    }

    /// The document goes on return, once its layers' bytes, its tokens and what its signatures cover are taken.
    static func prepare(_ input: RedactInput, document: consuming Document, plan: RedactPlan, wrapper: WrapperText) -> Prepared {
        let shape = DocumentShape(copy document)
        var copy = RedactedCopy(name: input.loaded.name, summary: document.summary, inputHasErrors: document.hasErrors)
        copy.notReplaced = plan.notReplaced
        if let origin = input.loaded.origin, !origin.others.isEmpty {
            // The paste finder's other finds are not opened, so nothing inside them is replaced: never silently.
            let count = origin.others.count
            copy.notReplaced.append("\(count) other piece\(count == 1 ? "" : "s") of data in the text (\(origin.others.prefix(3).joined(separator: "; "))"
                                    + "\(count > 3 ? "; …" : "")): not opened, so not redacted; cut \(count == 1 ? "it" : "them") out and redact each on its own")
        }
        if wrapper.keptPassword {
            copy.notReplaced.append("the verifyReceipt body's \"password\" (the app's shared secret), kept with --keep password: remove it before sharing")
        }
        copy.nodeCount = shape.nodeCount
        copy.layerCount = shape.layers.count
        copy.diagnosticCount = shape.diagnosticCount
        if let refusal = document.redactionRefusal {
            copy.failure = refusal
            return Prepared(copy: copy, rewrite: nil, signed: [], shape: shape)
        }
        let parts = document.redactionParts(fields: [])
        let rewrite = LayerRewrite(copy document, tokens: parts.tokens, written: RedactPlan.written(plan.targets))
        return Prepared(copy: copy, rewrite: rewrite, signed: parts.signatures, shape: shape)
    }

    /// Writes the stand-ins into the prepared layers: the file's new bytes, and which signatures
    /// they break.
    static func rewrite(_ prepared: consuming Prepared, plan: RedactPlan, standIns: StandIns) -> Rewritten {
        var copy = prepared.copy
        guard var rewrite = prepared.rewrite.take() else { return Rewritten(copy: copy, file: nil, shape: prepared.shape) }
        let file = rewriteLayers(&rewrite, plan: plan, standIns: standIns, copy: &copy)
        // What no longer verifies in the copy, and why.
        copy.signatures = prepared.signed.filter { $0.layers.contains(where: rewrite.changed) }.map(\.note)
        return Rewritten(copy: copy, file: file, shape: prepared.shape)
    }

    /// The values around the data, the file put back in its text form, and the check of the copy.
    /// The input (`raw`, `loaded`) and the file's new bytes go once the copy's text is made (`textForm`).
    static func finish(_ rewritten: consuming Rewritten, raw: inout [UInt8], loaded: inout LoadedInput, expected: [Int32],
                       wrapper: WrapperText, standIns: StandIns, fields: Set<RedactField>) -> RedactedCopy {
        var copy = rewritten.copy
        guard var file = rewritten.file.take() else { return copy }
        do {
            if wrapper.needsInputText {
                let made = try textForm(&file, raw: &raw, loaded: &loaded, wrapper: wrapper, standIns: standIns, copy: &copy)
                try check(made.loaded, shape: rewritten.shape, standIns: standIns, fields: fields, expected: expected)
                copy.bytes = made.text
            } else {
                copy.bytes = try layoutForm(&file, loaded: &loaded, shape: rewritten.shape, expected: expected, wrapper: wrapper,
                                            standIns: standIns, fields: fields, copy: &copy)
            }
        } catch let failure as TextFormRewrap.Failure {
            copy.failure = failure.message
        } catch let failure as CheckFailure {
            copy.failure = failure.message
        } catch {
            copy.failure = "\(error)"
        }
        return copy
    }

    /// The copy of data kept as its layout (`WrapperText.around`): checked as it will read (the
    /// input's reading with the new bytes), then its text made from the new bytes and read back,
    /// so that the text is never held beside the opened copy (issue 32). `loaded` and `file` are
    /// empty on return.
    static func layoutForm(_ file: inout [UInt8], loaded: inout LoadedInput, shape: DocumentShape, expected: [Int32],
                           wrapper: WrapperText, standIns: StandIns, fields: Set<RedactField>, copy: inout RedactedCopy) throws -> [UInt8] {
        var reading = loaded
        loaded = LoadedInput(bytes: [], name: reading.name, encoding: reading.encoding, note: "")
        reading.bytes = file
        file = []
        try check(reading, shape: shape, standIns: standIns, fields: fields, expected: expected)
        let text = wrapper.copyText(reading.bytes, standIns: standIns, copy: &copy)
        // Read back against the bytes' digest: the read of a body holds its text and its decoding.
        let written = TextFormRewrap.ExpectedBytes(reading.bytes, text: text)
        reading.bytes = []
        // It must read as the check opened it: with no finding of the loader's either.
        let reread = try TextFormRewrap.readBack(text, name: reading.name, encoding: reading.encoding,
                                                 pasted: reading.origin != nil, expected: written)
        guard reread.diagnostics.isEmpty else {
            throw TextFormRewrap.Failure(message: "the copy does not load back as the input did: the loader finds a problem in it")
        }
        return text
    }

    /// The copy's text: the values around the data replaced first (same-length writes outside it,
    /// so the loader's record of where the data sits still holds), then the file's new bytes put
    /// back in the input's text form. `raw`, `loaded` and `file` are empty on return.
    static func textForm(_ file: inout [UInt8], raw: inout [UInt8], loaded: inout LoadedInput, wrapper: WrapperText,
                         standIns: StandIns, copy: inout RedactedCopy) throws -> TextFormRewrap.Rewrapped {
        // The paste's record of the text shares the text's storage: it goes, so that the values'
        // writes change the text in place instead of copying it (the rewrite reads the record's
        // steps, never its text).
        loaded.origin = loaded.origin?.withoutText
        wrapper.writeTargets(into: &raw, standIns: standIns, copy: &copy)
        return try TextFormRewrap.rewrap(raw: &raw, loaded: &loaded, newBytes: &file)
    }

    /// Writes the stand-ins into the document's layers and carries them out to the file's bytes
    /// (nil, with `copy.failure` said, when it cannot); `rewrite.changed` then says which layers changed.
    static func rewriteLayers(_ rewrite: inout LayerRewrite, plan: RedactPlan, standIns: StandIns, copy: inout RedactedCopy) -> [UInt8]? {
        do {
            for (k, target) in plan.targets.enumerated() {
                guard let standIn = plan.standInIndex(k) else { continue }
                try rewrite.write(target, standIn: standIns.standIn(at: standIn))
                if target.isMention { copy.mentions += 1 } else { copy.replaced[target.field, default: 0] += 1 }
            }
            return try rewrite.propagate()
        } catch let failure as LayerRewrite.Failure {
            copy.failure = failure.message
        } catch {
            copy.failure = "\(error)"
        }
        return nil
    }

    struct CheckFailure: Error {
        var message: String
    }

    /// Opens the copy (`reloaded`: its text as the loader read it back) and checks it: the same
    /// shape, and at every place a value was, now its stand-in (`expected`: the places in the run's
    /// table of the original's values that are not mentions, in order).
    static func check(_ reloaded: LoadedInput, shape: DocumentShape, standIns: StandIns,
                      fields: Set<RedactField>, expected: [Int32]) throws {
        let copy = Document.open(reloaded, options: openOptions)
        if let difference = shape.firstDifference(from: copy) {
            throw CheckFailure(message: "the copy would not parse like the original: \(difference)")
        }
        // The copy's values are compared as they are found, in order with the original's that are
        // not mentions: no list of either (11 MB each for 20,000 purchases; issue 32).
        var found = 0
        // The copy's place: the same words as the original's, the shapes being equal.
        var missing: String?
        RedactCollector.forEachTarget(copy, fields: fields) { new in
            defer { found += 1 }
            guard missing == nil, found < expected.count, expected[found] >= 0 else { return }
            if new.original(in: copy.layers[new.layer.index].bytes) != standIns.standIn(at: Int(expected[found])) { missing = new.place }
        }
        guard found == expected.count else {
            throw CheckFailure(message: "the copy has \(found) values to replace where the original had \(expected.count)")
        }
        if let missing { throw CheckFailure(message: "\(missing): the copy does not hold the stand-in") }
    }
}

