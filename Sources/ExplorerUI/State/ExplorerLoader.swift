import ASN1Lenient
import ReceiptKit

/// Turns bytes into a tree and, when the bytes are a receipt, the receipt overlay.
public enum ExplorerLoader {
    /// Parses through the receipt module (which parses the payload on purpose, decodes and
    /// validates it); falls back to a plain parse for anything that is not a receipt.
    public static func load(_ bytes: [UInt8]) -> (tree: Tree, receipt: ReceiptOverlay?) {
        load(bytes, options: AnalysisOptions())
    }
}
