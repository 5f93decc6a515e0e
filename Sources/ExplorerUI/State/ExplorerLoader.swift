import ASN1Lenient

/// Turns bytes into a tree and, when the bytes are a receipt, the receipt overlay.
public enum ExplorerLoader {
    public static func load(_ bytes: [UInt8]) -> (tree: Tree, receipt: ReceiptOverlay?) {
        (ASN1Parser.parse(bytes), nil)
    }
}
