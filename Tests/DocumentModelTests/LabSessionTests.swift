import ASN1Lenient
import DocumentCore
import DocumentTour
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// The tamper lab: each edit re-opens the document; what changed is worded from the documents
/// before and after; undo gives back the exact bytes.
@Suite struct LabSessionTests {
    static func session(_ name: String = "typical.receipt") throws -> LabSession {
        let root = try Paths.sample("pki/test-root.cer")
        let options = AnalysisOptions(validate: true, roots: [root])
        let bytes = try Paths.sample(name)
        return LabSession(document: Document.open(LoadedInput(bytes: bytes, name: name, encoding: .binary, note: "raw"), options: options))
    }

    @Test func editingTheBundleIDBreaksTheSignature() throws {
        var lab = try Self.session()
        #expect(lab.document.receipt?.step(.signature)?.status == .passed)
        // Offset 307 is the first character of the bundle id UTF8String ('c').
        #expect(lab.bytes[307] == 0x63)
        let edited = lab.replace(at: 307, with: 0x43)
        #expect(edited)
        #expect(lab.document.diagnostics.isEmpty)
        #expect(lab.document.receipt?.step(.signature)?.status.isFailed == true)
        #expect(lab.lastChange.map(\.text) == ["signature: passed → FAILED (signature mismatch)"])
        #expect(lab.lastChange.map(\.nowFails) == [true])
        #expect(lab.marked[307] && !lab.marked[306] && lab.marked.filter { $0 }.count == 1)
    }

    /// Fuzz finding (FuzzEdit, 2026-11-30): a reason quoting the input reached the lab's change line
    /// raw. Here the space after "StoreKit" in the Xcode signer's subject CN becomes a NUL; the
    /// receipt-signer step (failed already: the session trusts the samples' test root, not Xcode's
    /// certificate) names the certificate before and after, the new name escaped.
    @Test func aReasonQuotingTheInputIsEscaped() throws {
        var lab = try Self.session("xcode-ber.receipt")
        // Offset 1,003 starts the subject CN "receipt-explorer TEST StoreKit Testing…"; 1,033 is its space.
        #expect(Array(lab.bytes[1003..<1037]) == Array("receipt-explorer TEST StoreKit Tes".utf8))
        lab.replace(at: 1033, with: 0x00)
        #expect(lab.lastChange.map(\.text) == [
            "chain: FAILED (chain) → FAILED (chain)",
            "receipt-signer: FAILED (the signer certificate (receipt-explorer TEST StoreKit Testi) → "
                + "FAILED (the signer certificate (receipt-explorer TEST StoreKit\\x00Testi)",
        ])
        for line in lab.lastChange {
            #expect(!line.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.text)")
        }
    }

    @Test func aLengthPastItsParentIsANewError() throws {
        var lab = try Self.session()
        // Offset 296 is the length octet (0x25) of the bundle id attribute SEQUENCE at 295.
        #expect(lab.bytes[296] == 0x25)
        lab.replace(at: 296, with: 0x7F)
        let errors = lab.document.diagnostics.map(\.diagnostic).filter { $0.severity == .error }
        // The SEQUENCE now claims 127 bytes (to 424) and swallows the in-app purchase at 334,
        // whose own length (0x164) then runs past its new parent.
        #expect(errors.map { "\($0.code.rawValue) \($0.offset)" } == [
            "length-exceeds-parent 335", "length-exceeds-parent 345", "integer-not-minimal 429",
            "receipt-attribute-malformed 424", "receipt-attribute-malformed 427", "receipt-attribute-malformed 441",
        ])
        #expect(lab.lastChange.map(\.text) == [
            "contents: passed → FAILED (6 errors, first length-exceeds-parent)",
            "signature: passed → FAILED (signature mismatch)",
            "new error: length-exceeds-parent at 335", "new error: length-exceeds-parent at 345",
            "new error: receipt-attribute-malformed at 424", "new error: receipt-attribute-malformed at 427",
            "new error: integer-not-minimal at 429", "new error: receipt-attribute-malformed at 441",
            "new der: set-not-sorted at 424", "new der: boolean-value at 426",
            "new warning: receipt-attribute-malformed at 295",
        ])
        #expect(LabChange.summary(lab.lastChange)
                == "contents: passed → FAILED (6 errors, first length-exceeds-parent); signature: passed → FAILED (signature mismatch) (+9 more)")
    }

    @Test func undoRestoresTheExactBytes() throws {
        var lab = try Self.session()
        let original = lab.bytes
        lab.replace(at: 307, with: 0x43)
        lab.insert(0x00, at: 10)
        lab.delete(at: 7000)
        #expect(lab.bytes.count == original.count)
        #expect(lab.bytes != original)
        let undone = [lab.undo(), lab.undo(), lab.undo()]
        #expect(undone == [true, true, true])
        #expect(lab.bytes == original)
        #expect(!lab.isEdited)
        #expect(lab.marked == Array(repeating: false, count: original.count))
        #expect(lab.document.receipt?.step(.signature)?.status == .passed)
        let fourth = lab.undo()
        #expect(!fourth)
    }

    @Test func editsOutsideTheBytesAreRefused() throws {
        var lab = try Self.session("minimal.receipt")
        let refused = [lab.replace(at: 3715, with: 0), lab.delete(at: -1), lab.insert(0, at: 3716)]
        #expect(refused == [false, false, false])
        let appended = lab.insert(0, at: 3715)
        #expect(appended)
        #expect(lab.bytes.count == 3716)
        #expect(lab.history.count == 1)
    }
}
