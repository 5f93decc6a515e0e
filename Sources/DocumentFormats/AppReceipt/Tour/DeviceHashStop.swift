import ASN1Lenient
import ReceiptKit
import ByteText
import DocumentCore
import DocumentTour

/// The device-hash stop: attribute 5 = SHA-1(device identifier ‖ opaque value (attribute 4) ‖
/// attribute 2's value bytes), computed with ReceiptKit's `DeviceHash` when the learner gave a
/// device identifier (`tour --device-id`, `explore --device-id`).
extension ReceiptRoute {
    static let deviceIDHint = "device: none given: run `receipt-explorer tour FILE --device-id UUID` (or `receipt-explorer FILE --device-id UUID`, then t) with the device's identifierForVendor (a Mac's MAC address) to compute the hash here; the receipt never holds it"

    func deviceHashStop(_ receipt: Receipt) -> [TourStep] {
        let payload = self.payload
        let tree = payload.tree
        let hashField = receipt.fields.first { $0.type == 5 }
        guard let node = hashField?.valueNode ?? Optional(receipt.payloadNode), payload.treeHasNode(node) else { return [] }
        func count(_ n: Int) -> String { n == 1 ? "1 byte" : "\(NumberText.grouped(n)) bytes" }
        var lesson = ["meaning: attribute 5 is SHA-1(device identifier ‖ opaque value, attribute 4 ‖ bundle id, attribute 2's value bytes): it ties the receipt to one device and one app"]
        let opaque = receipt.opaqueValue, bundle = receipt.bundleIDTLV, expected = receipt.sha1Hash
        let missing = [(4, opaque), (2, bundle), (5, expected)].filter { $0.1 == nil }.map { "attribute \($0.0)" }
        lesson.append("input: device identifier: an iPhone or iPad's identifierForVendor UUID as 16 bytes, a Mac's primary MAC address as 6")
        if let opaque { lesson.append("input: opaque value, attribute 4: \(Hex.string(opaque, .upper, separator: " ")) (\(count(opaque.count)))") }
        if let bundle { lesson.append("input: bundle id, attribute 2's value bytes, the UTF8String's tag and length included: \(Hex.string(bundle, .upper, separator: " ")) (\(count(bundle.count)))") }
        if let expected { lesson.append("expected: attribute 5: \(Hex.string(expected, .upper, separator: " "))") }
        if !missing.isEmpty {
            lesson.append("meaning: this receipt has no \(missing.joined(separator: ", ")), so the hash cannot be checked")
        }
        let device = analysis.options.deviceID
        if let device, let opaque, let bundle, let expected {
            let computed = DeviceHash.compute(deviceID: device.bytes, opaque: opaque, bundleIDTLV: bundle)
            lesson.append("device: \(device): \(Hex.string(device.bytes, .upper, separator: " ")) (\(count(device.bytes.count)))")
            lesson.append("computed: SHA-1(device ‖ opaque value ‖ bundle id) = \(Hex.string(computed, .upper, separator: " "))")
            lesson.append(computed == expected
                          ? "verdict: it matches attribute 5: this receipt was issued to this device for this app"
                          : "verdict: it does not match attribute 5: the receipt was issued to another device (or its opaque value or bundle id were changed)")
        } else if device == nil {
            lesson.append(Self.deviceIDHint)
        }
        var check: SelfCheck?
        if let opaque, let bundle, let inner = receipt.fields.first(where: { $0.type == 2 })?.innerNode, payload.treeHasNode(inner) {
            let d = device?.bytes.count ?? 16
            let header = tree.nodes[inner].headerLength
            let what = device.map { "this \($0.kind.rawValue) (\(count(d)))" } ?? "a 16-byte identifierForVendor"
            check = SelfCheck("With \(what), how many bytes go into SHA-1?",
                              right: ("\(d + opaque.count + bundle.count)", "\(d) + \(opaque.count) + \(bundle.count): the device identifier, the opaque value and attribute 2's whole value"),
                              wrong: [("\(d + opaque.count + bundle.count - header)", "the bundle id goes in as attribute 2's value bytes: the UTF8String's \(header) tag and length octets too, not the \(bundle.count - header) characters alone"),
                                      ("\(opaque.count + bundle.count)", "the device identifier's \(d) bytes come first; without them the hash would not name a device")],
                              seed: Int(tree.nodes[node].offset))
        }
        let check2 = check ?? expected.flatMap { sizeCheck($0.count, seed: Int(tree.nodes[node].offset)) } ?? payload.lengthCheck(node)
        return [payload.step(node, .content, "The device hash (attribute 5)", lesson, check: check2,
                             withheld: check == nil && check2 != nil ? [.length, .content] : [])]
    }

    /// When the hash cannot be computed: how long a SHA-1 digest is, against attribute 5's own length.
    func sizeCheck(_ length: Int, seed: Int) -> SelfCheck? {
        SelfCheck("How many bytes does SHA-1 produce?",
                  right: ("20", "SHA-1 outputs 160 bits, 20 bytes; this attribute 5 holds \(length)" + (length == 20 ? "" : ", so it cannot be a SHA-1 digest")),
                  wrong: [("32", "32 bytes is SHA-256's output; the receipt's device hash is SHA-1"),
                          ("16", "16 bytes is MD5's output (and an identifierForVendor's length); SHA-1 gives 20")], seed: seed)
    }
}
