import ASN1Lenient
import DocumentCore
import DocumentFormats
import Foundation
import FuzzSupport
import ReceiptKit

/// Fuzz target (b): the Document every command opens — receipt decoding + validation (OpenSSL
/// signature and chain checks included) and StoreKit 2 JWS decoding + ES256 / x5c verification.
///
/// The input is a file's bytes, loaded as the commands load it and opened with `Document.open`,
/// which locates the PKCS#7 container, parses the payload on purpose, decodes the attributes (or
/// decodes every JWS token, nested ones included) and runs every validation step against the TEST
/// PKI (samples/pki), at a fixed moment so that runs are reproducible. Traps when:
/// - an ASN.1 layer's tree (the input's, a reassembled payload's, an x5c certificate's) breaks an
///   invariant (see `checkTree`), or any layer's diagnostic lies outside that layer's bytes,
/// - a finding's range or node lies outside its tree, or its message holds a control character,
/// - the signature report of a receipt whose payload is cut out of its container (`CMSWithoutContent`)
///   differs from the whole container's,
/// - `verify`'s text report or the `json` document lets a control character or bidi override through,
///   or so do `tour --print`'s lessons, or a StoreKit document's `dump` tree, `explain` texts or
///   `verify` report.
let roots = [readFile(repositoryRoot + "/samples/pki/test-root.cer"),
             readFile(repositoryRoot + "/samples/pki/test-storekit.cer"),
             readFile(repositoryRoot + "/samples/pki/test-ec-root.cer")]
let deviceID = try! DeviceIdentifier.parse("A1B2C3D4-E5F6-4789-9ABC-DEF012345678")
/// 2024-03-01T12:00:00Z, the creation date of the typical sample.
let moment = Date(timeIntervalSince1970: 1_709_294_400)
let options = AnalysisOptions(validate: true, roots: roots, deviceID: deviceID,
                              bundleID: "com.example.receiptexplorer", appVersion: "2.3.1", at: nil, now: moment)
/// Developer-signed tokens are verified with the TEST In-App Purchase key (its public half) and
/// judged at `moment` + 10 minutes, as the samples' manifest does.
let jwsOptions: JWSOptions = {
    var jws = JWSOptions(expectedEnvironment: "Sandbox", expectedAppAppleID: 1450000001)
    var key = readFile(repositoryRoot + "/samples/developer/SubscriptionKey_TESTKEY001.p8")
    try! jws.loadDeveloperKey(&key, fileName: "SubscriptionKey_TESTKEY001.p8")
    return jws
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipt(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(!roots[0].isEmpty, "samples/pki/test-root.cer not found under \(repositoryRoot)")
    let raw = Array(UnsafeBufferPointer(start: data, count: size))
    guard let input = loadOrCheckRefusal(raw) else { return 0 }
    let document = Document.open(input, options: options, reading: .always, jws: jwsOptions)
    for layer in document.layers {
        if let tree = layer.tree { checkTree(tree, "layer \(layer.id.index)") }
        checkDiagnostics(layer.content.diagnostics, bytes: layer.bytes.count, nodes: layer.tree?.count ?? Int.max,
                         "layer \(layer.id.index) diagnostics")
    }
    assertTerminalSafe(document.note, "document note")
    assertTerminalSafe(document.tour.text(fileRange: document.fileRange(of:)), "tour --print")
    // Every derived layer (a token's parts, an Advanced Commerce request, an external purchase
    // token's JSON) maps inside the file.
    for layer in document.layers where layer.parent != nil {
        let range = document.fileRange(0..<layer.bytes.count, in: layer.id)
        precondition(range.lowerBound >= 0 && range.upperBound <= document.fileLayer.bytes.count,
                     "layer \(layer.id.index) maps to \(range), outside the file")
    }
    if document.jws != nil || document.externalPurchase != nil {
        assertTerminalSafe(JWSTreeDump(document).render(), "JWSTreeDump")
        let report = VerificationReport(verifying: document, now: moment, jws: jwsOptions, bundleID: options.bundleID)
        assertTerminalSafe(VerificationText.text(report, inputName: "fuzz"), "VerificationText (developer / external)")
    }
    if document.jws != nil {
        // The StoreKit texts `dump`, `explain` and `verify` print, at three offsets for `explain`.
        assertTerminalSafe(JWSTreeDump(document).render(), "JWSTreeDump")
        let explain = JWSExplain(document)
        assertTerminalSafe(explain.overview(), "JWSExplain overview")
        let size = document.fileLayer.bytes.count
        for offset in Set([0, size / 2, max(0, size - 1)]) {
            if let text = explain.explain(fileOffset: offset) { assertTerminalSafe(text, "JWSExplain at \(offset)") }
        }
        if let report = VerificationReport(storeKitOf: document, now: moment) {
            assertTerminalSafe(VerificationText.text(report, inputName: "fuzz"), "VerificationText")
            // Written as it is made (issue 32), the report is byte for byte the one made whole.
            var streamed: [UInt8] = []
            VerificationJSON.stream(report, input: ("fuzz", size)) { streamed += $0 }
            precondition(streamed == VerificationJSON.bytes(report, input: ("fuzz", size)), "verify --format json streamed")
        }
        if let reading = document.format.json(document, words: .plain) {
            var streamed: [UInt8] = []
            reading.write { streamed += $0 }
            precondition(streamed == Array(ReceiptJSON.serialize(JWSJSON.object(document)).utf8), "json streamed")
        }
    }
    guard let analysis = document.receipt else { return 0 }
    checkTree(analysis.tree, "analysis.tree")
    if let payload = analysis.payloadTree { checkTree(payload, "payloadTree") }
    checkDiagnostics(analysis.findings, bytes: input.bytes.count, nodes: analysis.tree.count, "findings")
    for node in analysis.receiptTree.nodes.indices.prefix(64) {
        if let location = analysis.location(of: node), location.fieldIndex < 0 {
            fatalError("node \(node) links to field \(location.fieldIndex)")
        }
    }
    // A payload cut out of its container (`CMSWithoutContent`, taken from 64 KiB of eContent on)
    // must give the report the whole container gives: both ways, on every input that reads as a receipt.
    let bytes = input.bytes
    let cut = SignatureValidation.validate(pkcs7: bytes, payload: nil, creationDate: nil, now: moment, extraRoots: roots,
                                           contentCutFrom: 0)
    let whole = SignatureValidation.validate(pkcs7: bytes, payload: nil, creationDate: nil, now: moment, extraRoots: roots,
                                             contentCutFrom: .max)
    precondition(cut.steps == whole.steps && cut.signedContent == whole.signedContent,
                 "the content cut changed the report: \(cut.steps) / \(whole.steps)")
    assertTerminalSafe(VerifyReport.text(analysis, inputName: "fuzz"), "VerifyReport")
    assertTerminalSafe(ReceiptJSON.text(analysis), "ReceiptJSON")
    return 0
}

@_cdecl("FuzzReceipt_main")
func fuzzReceiptMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzReceipt` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzReceipt(data, size) })
}
