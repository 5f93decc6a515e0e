import ASN1Lenient
import ReceiptKit
import ByteText
import TextLoader
import DocumentCore

/// One byte edit of the tamper lab, with what undoing it needs.
public enum LabEdit: Sendable, Equatable {
    case replace(offset: Int, old: UInt8, new: UInt8, wasMarked: Bool)
    case insert(offset: Int, byte: UInt8)
    case delete(offset: Int, byte: UInt8, wasMarked: Bool)
}

/// The tamper lab: the input's bytes under edit. Every edit re-opens the document from the edited
/// bytes through the one way in (`DocumentInput.readEdited`, then parse, locate, decode, validate), marks the changed bytes and
/// says what changed; undo restores the previous bytes exactly.
public struct LabSession: Sendable {
    public let original: [UInt8]
    public private(set) var bytes: [UInt8]
    /// True for each byte of `bytes` that an edit wrote or inserted.
    public private(set) var marked: [Bool]
    public private(set) var history: [LabEdit] = []
    public private(set) var document: Document
    /// What the last edit or undo changed, in words ("signature: passed → FAILED (…)").
    public private(set) var lastChange: [LabChangeLine] = []
    let source: DocumentSource

    public init(document: Document) {
        self.document = document
        self.original = document.fileLayer.bytes.array
        self.bytes = original
        self.marked = Array(repeating: false, count: original.count)
        self.source = document.source
    }

    public var isEdited: Bool { bytes != original }

    /// Replaces the byte at `offset`; false when `offset` is outside the bytes.
    @discardableResult
    public mutating func replace(at offset: Int, with value: UInt8) -> Bool {
        guard bytes.indices.contains(offset) else { return false }
        apply(.replace(offset: offset, old: bytes[offset], new: value, wasMarked: marked[offset]))
        return true
    }

    /// Inserts `value` before `offset` (`offset == bytes.count` appends).
    @discardableResult
    public mutating func insert(_ value: UInt8, at offset: Int) -> Bool {
        guard offset >= 0 && offset <= bytes.count else { return false }
        apply(.insert(offset: offset, byte: value))
        return true
    }

    @discardableResult
    public mutating func delete(at offset: Int) -> Bool {
        guard bytes.indices.contains(offset) else { return false }
        apply(.delete(offset: offset, byte: bytes[offset], wasMarked: marked[offset]))
        return true
    }

    /// Undoes the last edit; false when there is none.
    @discardableResult
    public mutating func undo() -> Bool {
        guard let edit = history.popLast() else { return false }
        switch edit {
        case .replace(let offset, let old, _, let wasMarked): bytes[offset] = old; marked[offset] = wasMarked
        case .insert(let offset, _): bytes.remove(at: offset); marked.remove(at: offset)
        case .delete(let offset, let byte, let wasMarked): bytes.insert(byte, at: offset); marked.insert(wasMarked, at: offset)
        }
        reopen()
        return true
    }

    mutating func apply(_ edit: LabEdit) {
        switch edit {
        case .replace(let offset, _, let new, _): bytes[offset] = new; marked[offset] = true
        case .insert(let offset, let byte): bytes.insert(byte, at: offset); marked.insert(true, at: offset)
        case .delete(let offset, _, _): bytes.remove(at: offset); marked.remove(at: offset)
        }
        history.append(edit)
        reopen()
    }

    mutating func reopen() {
        let before = document
        // The one way in, for edited bytes: they are past the loader already, so they keep the encoding.
        document = Document.open(DocumentInput.readEdited(bytes, of: source), document.openedWith)
        lastChange = LabChange.describe(before: before, after: document)
    }
}
